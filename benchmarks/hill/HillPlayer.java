import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * Hill's Java solver as a cspmines player through the line protocol (docs/protocol.md), so that
 *
 *   cspmines bench --agent exact --agent "cmd:java -XX:ActiveProcessorCount=1 -cp CLASSES HillPlayer"
 *
 * plays it on the bench's own boards beside our agents. Our own driver: it calls his solver and copies none of
 * his code. Compile it beside the classes of benchmarks/peers.py:
 *
 *   javac -cp CLASSES -d CLASSES benchmarks/hill/HillPlayer.java
 *
 * It plays as his bulk player does (BoardFileRun): one solver for the whole game, his SMALL_ANALYSIS settings,
 * single thread, no flags; every move of a solver's answer is made in turn (a move whose cell the game has opened
 * meanwhile is passed over, as his game ignores it), and the solver is asked again only when they are all made.
 * His game model here holds only what cspmines shows: each position message sets it. Classic rules only.
 */
public class HillPlayer {
    static final Pattern NUMBER = Pattern.compile("\"(width|height|mines|index)\"\\s*:\\s*(-?\\d+)");
    static final Pattern ROWS = Pattern.compile("\"position\"\\s*:\\s*\\[([^\\]]*)\\]");
    static final Pattern ROW = Pattern.compile("\"([^\"]*)\"");

    /** His game model, holding what the last position showed: clues, flags, and covered cells. */
    static final class ShownGame extends GameStateModel {
        private final int[][] clue;  // [x][y]

        ShownGame(GameSettings settings, long seed) {
            super(settings, seed);
            clue = new int[width][height];
        }

        /** Set the model to the rows of a position (row y, column x); the game starts at its first opened cell. */
        void show(List<String> rows) {
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    char seen = rows.get(y).charAt(x);
                    if (seen >= '0' && seen <= '8') {
                        if (getGameState() == GameStateModel.NOT_STARTED) start(new Location(x, y));
                        clue[x][y] = seen - '0';
                        setRevealed(x, y);
                    } else if (seen == 'F') {
                        setFlag(x, y);
                    } else if (seen == '.') {
                        removeFlag(x, y);
                    }
                }
            }
        }

        @Override protected void startHandle(Location m) { }
        @Override protected void placeFlagHandle(Location m) { }
        @Override protected int queryHandle(int x, int y) { return clue[x][y]; }
        @Override protected boolean clearSquareHitMine(Location m) { return false; }  // moves are made by cspmines
        @Override protected boolean clearSurroundHandle(Location m) { return false; }
        @Override public boolean supports3BV() { return false; }
    }

    private ShownGame game;
    private Solver solver;
    private final Deque<Action> planned = new ArrayDeque<>();

    void newGame(String message) {
        int width = 0, height = 0, mines = 0, index = 0;
        Matcher m = NUMBER.matcher(message);
        while (m.find()) {
            int value = Integer.parseInt(m.group(2));
            switch (m.group(1)) {
                case "width": width = value; break;
                case "height": height = value; break;
                case "mines": mines = value; break;
                default: index = value;
            }
        }
        game = new ShownGame(GameSettings.create(width, height, mines), index);
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        planned.clear();
    }

    /** The next move on the position: the next planned move that still applies, else the solver's new answer. */
    String move(String message) {
        List<String> rows = new ArrayList<>();
        Matcher listed = ROWS.matcher(message);
        if (listed.find()) {
            Matcher row = ROW.matcher(listed.group(1));
            while (row.find()) rows.add(row.group(1));
        }
        game.show(rows);
        for (int asked = 0; asked < 2; asked++) {
            while (!planned.isEmpty()) {
                Action a = planned.poll();
                char seen = rows.get(a.y).charAt(a.x);
                String certain = a.isCertainty() ? "true" : "false";
                if (a.getAction() == Action.CLEAR && seen == '.') return "{\"open\": [" + a.y + ", " + a.x + "], \"certain\": " + certain + "}";
                if (a.getAction() == Action.FLAG && seen == '.') return "{\"flag\": [" + a.y + ", " + a.x + "], \"certain\": " + certain + "}";
                if (a.getAction() == Action.CLEARALL && seen >= '0' && seen <= '8') return "{\"chord\": [" + a.y + ", " + a.x + "], \"certain\": " + certain + "}";
            }
            solver.start();
            for (Action a : solver.getResult()) planned.add(a);
        }
        for (int y = 0; y < rows.size(); y++) {  // his solver had nothing to say (his bulk player would stop here)
            int x = rows.get(y).indexOf('.');
            if (x >= 0) return "{\"open\": [" + y + ", " + x + "]}";
        }
        return "{\"open\": [0, 0]}";
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);  // whatever his code prints must not reach the protocol's lines
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        HillPlayer player = new HillPlayer();
        for (String line; (line = in.readLine()) != null; ) {
            if (line.contains("\"cspmines\"")) out.println("{\"name\": \"hill\"}");
            else if (line.contains("\"game\"")) player.newGame(line);
            else if (line.contains("\"position\"")) out.println(player.move(line));
            else if (line.contains("\"quit\"")) break;
        }
    }
}
