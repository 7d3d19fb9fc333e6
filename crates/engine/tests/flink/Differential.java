// The differential tests' harness: runs exported jobs one after another on one
// local MiniCluster, in one JVM (JVM and cluster start-up are most of a small
// job's cost). Each job is an export's `run(String[] args, MiniCluster)`.
//
//   java -cp "$FLINK_LIB/*:classes" Differential OUT_DIR Class1 Class2 …
//
// For each class it writes OUT_DIR/<Class>.summary.json (the job's summary line)
// and OUT_DIR/<Class>.observe.jsonl (the hooks' observations), or
// OUT_DIR/<Class>.error.txt if the job threw.
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

public class Differential {
    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);
        int slots = 1;
        for (int i = 1; i < args.length; i++)
            slots = Math.max(slots, Class.forName(args[i]).getDeclaredField("SLOTS").getInt(null));
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 1000);
        conf.set(WebOptions.MAX_EXCEPTION_HISTORY_SIZE, 1000);
        conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(50));
        conf.set(RestOptions.CACHE_EXECUTION_GRAPH_TIMEOUT, Duration.ofMillis(50));
        long start = System.nanoTime();
        try (MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(slots).build())) {
            cluster.start();
            System.err.printf("differential: MiniCluster with %d slots up in %.1f s%n", slots, (System.nanoTime() - start) / 1e9);
            for (int i = 1; i < args.length; i++) {
                String name = args[i];
                long t0 = System.nanoTime();
                String[] jobArgs = {"--dir", out.resolve(name).toString(),
                        "--observe", out.resolve(name + ".observe.jsonl").toString()};
                try {
                    Object summary = Class.forName(name).getMethod("run", String[].class, MiniCluster.class)
                            .invoke(null, jobArgs, cluster);
                    Files.writeString(out.resolve(name + ".summary.json"), summary + "\n");
                    System.err.printf("differential: %-28s %5.1f s%n", name, (System.nanoTime() - t0) / 1e9);
                } catch (Throwable t) {
                    StringWriter w = new StringWriter();
                    t.printStackTrace(new PrintWriter(w));
                    Files.writeString(out.resolve(name + ".error.txt"), w.toString());
                    System.err.printf("differential: %-28s FAILED (%s)%n", name, t);
                }
            }
        }
        System.err.printf("differential: all jobs in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }
}
