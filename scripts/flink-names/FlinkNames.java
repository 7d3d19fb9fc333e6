import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Prints what scripts/flink-names.sh commits as the fixture of Flink names: for each
 * class named on standard input (simple or nested name, `Outer.Inner`), a line
 * `class <name> <method> <method> …` if a class of that name is in the jars given as
 * arguments; and for every `ConfigOption` field of a class whose name ends in
 * `Options` or `Option`, a line `option <key>` and one `deprecated <old key> <key>`
 * per deprecated fallback key.
 */
public class FlinkNames {
    public static void main(String[] args) throws Exception {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        TreeSet<String> wanted = new TreeSet<>();
        for (String l; (l = in.readLine()) != null; ) {
            if (!l.isBlank()) wanted.add(l.trim());
        }
        TreeSet<String> out = new TreeSet<>();
        ClassLoader loader = FlinkNames.class.getClassLoader();
        for (String jar : args) {
            try (JarFile jf = new JarFile(jar)) {
                for (JarEntry e : Collections.list(jf.entries())) {
                    String n = e.getName();
                    if (!n.startsWith("org/apache/flink/") || !n.endsWith(".class")) continue;
                    String binary = n.substring(0, n.length() - 6).replace('/', '.');
                    String simple = binary.substring(binary.lastIndexOf('.') + 1).replace('$', '.');
                    if (wanted.contains(simple)) {
                        TreeSet<String> methods = new TreeSet<>();
                        try {
                            Class<?> c = Class.forName(binary, false, loader);
                            for (Method m : c.getDeclaredMethods()) methods.add(m.getName());
                            for (Field f : c.getDeclaredFields()) methods.add(f.getName());
                        } catch (Throwable t) {
                            // A class that cannot be loaded still exists: listed without members.
                        }
                        out.add("class " + simple + (methods.isEmpty() ? "" : " " + String.join(" ", methods)));
                    }
                    if (simple.endsWith("Options") || simple.endsWith("Option")) {
                        options(binary, loader, out);
                    }
                }
            }
        }
        for (String l : out) System.out.println(l);
    }

    private static void options(String binary, ClassLoader loader, TreeSet<String> out) {
        try {
            Class<?> c = Class.forName(binary, true, loader);
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) continue;
                if (!f.getType().getName().equals("org.apache.flink.configuration.ConfigOption")) continue;
                f.setAccessible(true);
                Object opt = f.get(null);
                if (opt == null) continue;
                String key = (String) opt.getClass().getMethod("key").invoke(opt);
                out.add("option " + key);
                Iterable<?> fallbacks = (Iterable<?>) opt.getClass().getMethod("fallbackKeys").invoke(opt);
                for (Object fb : fallbacks) {
                    String old = (String) fb.getClass().getMethod("getKey").invoke(fb);
                    boolean deprecated = (Boolean) fb.getClass().getMethod("isDeprecated").invoke(fb);
                    if (deprecated) out.add("deprecated " + old + " " + key);
                }
            }
        } catch (Throwable t) {
            // Option holders that need classes outside these jars are skipped.
        }
    }
}
