// Runs java.util.regex over patterns and texts read from standard input,
// for tests/columns/test_regex_engines.py: one JVM for every pattern.
//
// Input, one record a line: "P <hex>" starts a pattern, "T <hex>" is a text,
// each its UTF-16 code units in hex, four digits a unit (so that a lone
// surrogate survives), "E" ends the pattern's texts.  Output:
// per pattern one line of 1 (find() succeeded) and 0, one per text, or
// "! <exception>" when the pattern does not compile or a match throws.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

public class RegexCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        Pattern pattern = null;
        StringBuilder row = new StringBuilder();
        String failure = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("P ")) {
                row.setLength(0);
                failure = null;
                try {
                    pattern = Pattern.compile(units(line.substring(2)));
                } catch (RuntimeException e) {
                    failure = e.toString();
                }
            } else if (line.startsWith("T")) {
                if (failure != null) {
                    continue;
                }
                String text = units(line.length() > 2 ? line.substring(2) : "");
                try {
                    row.append(pattern.matcher(text).find() ? '1' : '0');
                } catch (RuntimeException | StackOverflowError e) {
                    failure = e.toString();
                }
            } else if (line.equals("E")) {
                out.append(failure != null ? "! " + failure.replace('\n', ' ') : row.toString()).append('\n');
            }
        }
        System.out.print(out);
    }

    static String units(String hex) {
        char[] chars = new char[hex.length() / 4];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) Integer.parseInt(hex, 4 * i, 4 * i + 4, 16);
        }
        return new String(chars);
    }
}
