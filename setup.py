"""The compiled kernels are optional: where no C compiler is found the build goes on without them
and cspmines runs its pure-Python kernels (``cspmines --version`` says which)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("cspmines.native._kernels", ["cspmines/native/_kernels.c", "cspmines/native/value.c"], optional=True,
                             extra_compile_args=["-O2", "-fno-fast-math"])])
