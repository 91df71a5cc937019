import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.io.FileWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Plays Hill's solver on boards read from a JSON Lines file (cspmines' Board JSON, one a line) and writes every
 * move it makes, so that its games can be replayed move by move (benchmarks/divergence.py --along hill).
 *
 * Played as his bulk player plays: one solver for the whole game, his SMALL_ANALYSIS settings, single thread,
 * no flags, the start location given to the solver, and every move the solver returns made in order until the
 * game ends. Our own driver: it calls his solver and copies none of his code. Compile it beside BoardFileRun
 * and GivenBoardGame (the classes of benchmarks/peers.py):
 *
 *   javac -cp CLASSES -d CLASSES benchmarks/hill/HillTrace.java
 *   java -XX:ActiveProcessorCount=1 -cp CLASSES HillTrace BOARDS.jsonl OUT.jsonl [ROW COL]
 *
 * OUT.jsonl: {"index": i, "won": true|false, "moves": [[row, col, certain], ...]} a line, in file order,
 * certain being 1 where his solver called the move certain.
 */
public class HillTrace {
    static final Pattern INT_FIELD = Pattern.compile("\"(width|height)\"\\s*:\\s*(\\d+)");
    static final Pattern MINES = Pattern.compile("\"mines\"\\s*:\\s*\\[(.*?)\\]\\s*\\]");
    static final Pattern PAIR = Pattern.compile("\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\]");

    public static void main(String[] args) throws Exception {
        int row = args.length > 3 ? Integer.parseInt(args[2]) : 0, col = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        int index = 0;
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]));
             PrintWriter out = new PrintWriter(new FileWriter(args[1]))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) continue;
                int w = -1, h = -1;
                Matcher f = INT_FIELD.matcher(line);
                while (f.find()) { if (f.group(1).equals("width")) w = Integer.parseInt(f.group(2)); else h = Integer.parseInt(f.group(2)); }
                Matcher m = MINES.matcher(line.replace("[]", "[ ]"));
                boolean[][] mine = new boolean[w][h];
                int n = 0;
                if (m.find()) {
                    Matcher p = PAIR.matcher(m.group(1) + "]");
                    while (p.find()) { mine[Integer.parseInt(p.group(2))][Integer.parseInt(p.group(1))] = true; n++; }
                }
                GivenBoardGame gs = new GivenBoardGame(GameSettings.create(w, h, n), index, mine);
                SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
                settings.setSingleThread(true);
                settings.setStartLocation(new Location(col, row));
                Solver solver = new Solver(gs, settings, false);
                solver.setPlayStyle(PlayStyle.NO_FLAG);
                List<String> moves = new ArrayList<>();
                play: for (int loop = 0; loop < 2000; loop++) {
                    solver.start();
                    Action[] actions = solver.getResult();
                    if (actions.length == 0) break;
                    for (Action a : actions) {
                        gs.doAction(a);
                        if (a.getAction() == Action.CLEAR) moves.add("[" + a.y + ", " + a.x + ", " + (a.isCertainty() ? 1 : 0) + "]");
                        int state = gs.getGameState();
                        if (state == GameStateModel.WON || state == GameStateModel.LOST) break play;
                    }
                }
                out.println("{\"index\": " + index + ", \"won\": " + (gs.getGameState() == GameStateModel.WON) + ", \"moves\": [" + String.join(", ", moves) + "]}");
                index++;
            }
        }
    }
}
