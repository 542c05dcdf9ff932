// Runs java.util.regex over patterns and texts read from standard input,
// for tests/columns/test_regex_engines.py: one JVM for every pattern.
//
// Input, one record a line: "P <hex>" starts a pattern (its UTF-8 bytes in
// hex), "T <code points>" is a text (hex code points, comma-separated, so
// that a lone surrogate survives), "E" ends the pattern's texts.  Output:
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
                    pattern = Pattern.compile(new String(unhex(line.substring(2)), StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    failure = e.toString();
                }
            } else if (line.startsWith("T")) {
                if (failure != null) {
                    continue;
                }
                String text = text(line.length() > 2 ? line.substring(2) : "");
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

    static byte[] unhex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    static String text(String codes) {
        if (codes.isEmpty()) {
            return "";
        }
        String[] parts = codes.split(",");
        StringBuilder text = new StringBuilder();
        for (String part : parts) {
            text.appendCodePoint(Integer.parseInt(part, 16));
        }
        return text.toString();
    }
}
