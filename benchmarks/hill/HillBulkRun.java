import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.settings.GameType;
import minesweeper.solver.bulk.BulkPlayer;
import minesweeper.solver.bulk.BulkRequest;
import minesweeper.solver.bulk.BulkRequestGame;
import minesweeper.solver.bulk.GamePostListener;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Location;

/**
 * Plays Hill's Java solver on boards read from a JSON Lines file ({"width", "height", "mines": [[row, col], ...]},
 * cspmines' Board JSON), with the settings of his own bulk driver (single thread, NO_FLAG) and the brute-force
 * analysis asked for: SMALL_ANALYSIS (his bulk runs' setting, the default) or LARGE_ANALYSIS (more solutions
 * analysed, more time).
 *
 * Compile beside his classes:   javac -cp CLASSES -d CLASSES benchmarks/hill/HillBulkRun.java
 * usage: java HillBulkRun BOARDS.jsonl OUT.csv [firstRow firstCol [SMALL_ANALYSIS|LARGE_ANALYSIS]]
 * OUT.csv: index,won,guesses,actions — one line per board, in file order.
 */
public class HillBulkRun {
    static final Pattern INT_FIELD = Pattern.compile("\"(width|height)\"\\s*:\\s*(\\d+)");
    static final Pattern MINES = Pattern.compile("\"mines\"\\s*:\\s*\\[(.*?)\\]\\s*\\]");
    static final Pattern PAIR = Pattern.compile("\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\]");

    public static void main(String[] args) throws Exception {
        List<boolean[][]> boards = new ArrayList<>();
        int width = -1, height = -1, mines = -1;
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]))) {
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
                if (width < 0) { width = w; height = h; mines = n; }
                if (w != width || h != height || n != mines) throw new IllegalArgumentException("board " + boards.size() + " is not " + width + "x" + height + "x" + mines);
                boards.add(mine);
            }
        }
        int row = args.length > 3 ? Integer.parseInt(args[2]) : 0, col = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        GameSettings gameSettings = GameSettings.create(width, height, mines);
        Setting analysis = args.length > 4 ? Setting.valueOf(args[4]) : Setting.SMALL_ANALYSIS;
        SolverSettings settings = SettingsFactory.GetSettings(analysis);
        settings.setSingleThread(true);
        settings.setStartLocation(new Location(col, row));

        final int total = boards.size();
        final int[] next = {0};
        final PrintWriter csv = new PrintWriter(new FileWriter(args[1]));
        csv.println("index,won,guesses,actions");
        final int[] tally = {0, 0};
        BulkPlayer player = new BulkPlayer(new Random(0), total, GameType.STANDARD, gameSettings, settings, 1, 100) {
            @Override protected GameStateModel getGameState(long seed) {
                int i = next[0]++;
                return new GivenBoardGame(gameSettings, i, boards.get(i));
            }
        };
        player.setPlayStyle(PlayStyle.NO_FLAG);
        player.registerPostGameListener(new GamePostListener() {
            @Override public void postAction(BulkRequest request) {
                BulkRequestGame g = request.getRequestGames()[0];
                GivenBoardGame gs = (GivenBoardGame) g.getGame();
                boolean won = gs.getGameState() == GameStateModel.WON;
                tally[0]++; if (won) tally[1]++;
                csv.println(gs.index + "," + (won ? 1 : 0) + "," + g.getGuesses() + "," + gs.getActionCount());
            }
            @Override public void postResults() { }
        });
        long t0 = System.nanoTime();
        player.run();
        csv.close();
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("played %d won %d (%.3f%%) in %.1f s, %.2f ms a game%n", tally[0], tally[1], 100.0 * tally[1] / Math.max(1, tally[0]), secs, 1000 * secs / Math.max(1, tally[0]));
    }
}
