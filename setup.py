"""The compiled kernels are optional: where no C compiler is found the build goes on without them
and cspmines runs its pure-Python kernels (``cspmines --version`` says which)."""

from setuptools import Extension, setup

# One file a family of kernels; _kernels.c holds the module and its method table.
KERNEL_FILES = ["_kernels", "search", "value", "counting", "chains", "settling", "combining"]

setup(ext_modules=[Extension("cspmines.native._kernels", [f"cspmines/native/{name}.c" for name in KERNEL_FILES],
                             depends=["cspmines/native/kernels.h", "cspmines/native/memo.h"], optional=True,
                             extra_compile_args=["-O2", "-fno-fast-math"])])
