import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.management.OperatingSystemMXBean;

import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Action;

/**
 * What Hill's brute-force analysis makes of a position: whether it ran and completed, and the chance of winning it
 * found (the position's value under best play, where it completed), beside cspmines' value_of (benchmarks/value.py).
 * Our own driver: it calls his solver and copies none of his code. Compile it with HillPlayer.java (whose model of a
 * shown position it uses) beside the classes of benchmarks/peers.py:
 *
 *   javac -cp CLASSES -d CLASSES benchmarks/hill/HillPlayer.java benchmarks/hill/HillValue.java
 *   java -XX:ActiveProcessorCount=1 -cp CLASSES HillValue small|large [warm] < POSITIONS.jsonl
 *
 * Reads JSON Lines on standard input, {"width": W, "height": H, "mines": M, "rows": ["..1F", ...]} (rows in
 * cspmines' text format: '.' covered, 'F' a flag, digits the clues), shows each position to his game model and calls
 * a fresh solver once, with his SMALL_ANALYSIS (at most 400 solutions, or few enough once weighed by the safe density)
 * or LARGE_ANALYSIS (4,000) settings, single thread, no flags. With warm, every position is first analysed once
 * untimed, so that the timed pass runs compiled code (the virtual machine compiles his solver as it runs; cspmines'
 * search is compiled before it starts). One JSON line out per position:
 *
 *   {"line": i, "setting": "small", "solutions": "7440", "ran": true, "complete": true, "scope": "Game",
 *    "analysed": 7440, "chance": "0.68736559139784946237", "wins": 5114, "move": [row, col], "cpu_ms": c,
 *    "thread_cpu_ms": t, "wall_ms": w}
 *
 * solutions: his probability engine's count of the position's solutions (a string: it may be large), null where
 * none ran. ran: his brute force of the whole board listed every solution (it is tried only when the solutions are
 * few enough for the setting, and there is no certain clear). complete: its analysis searched the game tree to the
 * end within his node budget. scope: "Game" for that analysis of the whole board, "Isolated Edge" where his solver
 * answered from an enclosed part of the board instead (its chance is then that part's alone), null where none
 * completed. chance: his analysis's solve chance, read through the solver's private bruteForceAnalysis field and its
 * getSolveChance() by reflection (20 decimal places), with wins the winning solutions of the analysed ones that it
 * stands for (exact: the chance is winning lines over solutions, rounded to 20 places, so times the solutions it is
 * within far less than a half of the whole number). move: the first cell his solver opens ([row, col]), null if none.
 * cpu_ms: the CPU of the whole virtual machine over the call (his solver's thread, and the collector and compiler
 * working for it); thread_cpu_ms: his solver's thread alone (his settings are single-threaded); wall_ms: the call's
 * wall time. Whatever his code prints goes to standard error.
 */
public class HillValue {
    static final Pattern NUMBER = Pattern.compile("\"(width|height|mines)\"\\s*:\\s*(\\d+)");
    static final Pattern ROWS = Pattern.compile("\"rows\"\\s*:\\s*\\[([^\\]]*)\\]");
    static final Pattern ROW = Pattern.compile("\"([^\"]*)\"");

    /** A position read from one line: its size, mine total and rows (row y, column x). */
    static final class Shown {
        int width, height, mines;
        final List<String> rows = new ArrayList<>();

        static Shown read(String line) {
            Shown shown = new Shown();
            Matcher m = NUMBER.matcher(line);
            while (m.find()) {
                int value = Integer.parseInt(m.group(2));
                switch (m.group(1)) {
                    case "width": shown.width = value; break;
                    case "height": shown.height = value; break;
                    default: shown.mines = value;
                }
            }
            Matcher listed = ROWS.matcher(line);
            if (listed.find()) {
                Matcher row = ROW.matcher(listed.group(1));
                while (row.find()) shown.rows.add(row.group(1));
            }
            if (shown.rows.size() != shown.height || shown.rows.stream().anyMatch(r -> r.length() != shown.width))
                throw new IllegalArgumentException("rows do not match width " + shown.width + " and height " + shown.height);
            return shown;
        }
    }

    static Object field(Class<?> owner, Object of, String name) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(of);
    }

    static Object call(Class<?> owner, Object of, String name) throws ReflectiveOperationException {
        Method m = owner.getDeclaredMethod(name);
        m.setAccessible(true);
        return m.invoke(of);
    }

    static String quoted(Object value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    /** The JSON line for one position: his solver called once on it, then its fields read. */
    static String analyse(Shown shown, Setting setting, String name, int line, ThreadMXBean thread, OperatingSystemMXBean process)
            throws ReflectiveOperationException {
        HillPlayer.ShownGame game = new HillPlayer.ShownGame(GameSettings.create(shown.width, shown.height, shown.mines), line);
        game.show(shown.rows);
        SolverSettings settings = SettingsFactory.GetSettings(setting);
        settings.setSingleThread(true);
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        long cpuStart = process.getProcessCpuTime(), threadStart = thread.getCurrentThreadCpuTime(), wallStart = System.nanoTime();
        solver.start();
        Action[] moves = solver.getResult();
        double wallMs = (System.nanoTime() - wallStart) / 1e6, threadMs = (thread.getCurrentThreadCpuTime() - threadStart) / 1e6;
        double cpuMs = (process.getProcessCpuTime() - cpuStart) / 1e6;

        Class<?> model = Class.forName("minesweeper.solver.BruteForceAnalysisModel");
        Class<?> engine = Class.forName("minesweeper.solver.ProbabilityEngineModel");
        Class<?> bruteForce = Class.forName("minesweeper.solver.BruteForce");
        Object pe = field(Solver.class, solver, "pe");
        Object solutions = pe == null ? null : call(engine, pe, "getSolutionCount");
        Object whole = field(Solver.class, solver, "bf");  // the whole board's brute force, when tried
        boolean ran = whole != null && (Boolean) bruteForce.getMethod("hasRun").invoke(whole);
        Object wholeAnalysis = whole == null ? null : bruteForce.getMethod("getBruteForceAnalysis").invoke(whole);
        boolean complete = wholeAnalysis != null && (Boolean) call(model, wholeAnalysis, "isComplete");
        // the analysis his solver kept: set only when one completed (the whole board's, or an enclosed part's)
        Object kept = field(Solver.class, solver, "bruteForceAnalysis");
        String scope = null, chance = null;
        Integer analysed = null, wins = null;
        if (kept != null && (Boolean) call(model, kept, "isComplete")) {
            scope = (String) field(kept.getClass(), kept, "scope");
            BigDecimal solveChance = (BigDecimal) call(model, kept, "getSolveChance");
            analysed = (Integer) call(model, kept, "getSolutionCount");
            chance = solveChance.toPlainString();
            wins = solveChance.multiply(BigDecimal.valueOf(analysed)).setScale(0, RoundingMode.HALF_UP).intValueExact();
        }
        String move = "null";
        for (Action a : moves) {
            if (a.getAction() == Action.CLEAR) { move = "[" + a.y + ", " + a.x + "]"; break; }
        }
        return String.format("{\"line\": %d, \"setting\": \"%s\", \"solutions\": %s, \"ran\": %b, \"complete\": %b, \"scope\": %s, "
                + "\"analysed\": %s, \"chance\": %s, \"wins\": %s, \"move\": %s, \"cpu_ms\": %.3f, \"thread_cpu_ms\": %.3f, "
                + "\"wall_ms\": %.3f}",
                line, name, quoted(solutions == null ? null : (BigInteger) solutions), ran, complete, quoted(scope), analysed,
                quoted(chance), wins, move, cpuMs, threadMs, wallMs);
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "";
        Setting setting = name.equals("small") ? Setting.SMALL_ANALYSIS : name.equals("large") ? Setting.LARGE_ANALYSIS : null;
        boolean warm = args.length > 1 && args[1].equals("warm");
        if (setting == null || args.length > 2 || (args.length == 2 && !warm)) {
            System.err.println("usage: java HillValue small|large [warm] < POSITIONS.jsonl");
            System.exit(2);
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);  // whatever his code prints must not reach our lines
        ThreadMXBean thread = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean process = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        List<Shown> given = new ArrayList<>();
        for (String text; (text = in.readLine()) != null; ) {
            if (!text.isBlank()) given.add(Shown.read(text));
        }
        if (warm) {
            for (int line = 0; line < given.size(); line++) analyse(given.get(line), setting, name, line, thread, process);
        }
        for (int line = 0; line < given.size(); line++) out.println(analyse(given.get(line), setting, name, line, thread, process));
    }
}
