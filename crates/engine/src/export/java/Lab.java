//! Fragment of an exported job (a nested class of it): the local MiniCluster, the
//! lab's script, and the summary in `lab run`'s shape. Lines `//@en` / `//@zh` are
//! comments in one language; lines starting `//!` are dropped.
    // ------------------------------------------------------------------------------------
//@en The rest of this file is plumbing, not Flink lore: it starts a local MiniCluster
//@en (Flink's own, as `env.execute()` does, but kept for the web UI and the REST API),
//@en plays the lab's script against the job client, and prints the run's summary.
//@zh 以下是配套代码，与 Flink 知识无关：启动本地 MiniCluster（与 env.execute() 用的相同，
//@zh-Hant 以下是配套程式碼，與 Flink 知識無關：啟動本地 MiniCluster（與 env.execute() 用的相同，
//@zh 但保留下来以提供 Web UI 和 REST API），用 JobClient 执行实验室脚本，最后打印运行摘要。
//@zh-Hant 但保留下來以提供 Web UI 和 REST API），用 JobClient 執行實驗室指令碼，最後列印執行摘要。
//@zh 这部分的注释保留英文。
//@zh-Hant 這部分的註釋保留英文。
    // ------------------------------------------------------------------------------------

    /** A crash of the lab's script, where the lab's crash lands. */
    static final class Crash implements java.io.Serializable {
        final int job; final String task; final int attempt; final String source; final int partition; final long offset; final long labMs;
        Crash(int job, String task, int attempt, String source, int partition, long offset, long labMs) {
            this.job = job; this.task = task; this.attempt = attempt; this.source = source;
            this.partition = partition; this.offset = offset; this.labMs = labMs;
        }
    }

    /** A timed action of the lab's script (savepoints hold the sources at the lab's offsets). */
    static final class Action {
        final String kind; final long labMs; final int attempt; final Map<String, Long> holds;
        volatile boolean done;
        Action(String kind, long labMs, int attempt, Map<String, Long> holds) {
            this.kind = kind; this.labMs = labMs; this.attempt = attempt; this.holds = holds;
        }
    }

    /** The lab's script for one job. */
    static final class Script {
        final List<Action> actions = new ArrayList<>();
        Long untilMs;
        Script savepoint(long labMs, int attempt, String... holds) { return hold("savepoint", labMs, attempt, holds); }
        Script stopWithSavepoint(long labMs, int attempt, String... holds) { return hold("stop_with_savepoint", labMs, attempt, holds); }
        Script triggerCheckpoint(long labMs) { actions.add(new Action("trigger_checkpoint", labMs, -1, Map.of())); return this; }
        Script cancel(long labMs) { actions.add(new Action("cancel", labMs, -1, Map.of())); return this; }
        Script until(long labMs) { untilMs = labMs; return this; }
        Script manualCheckpointsOnly() { manualOnly = true; return this; }
        boolean manualOnly;
        private Script hold(String kind, long labMs, int attempt, String... holds) {
            Map<String, Long> h = new TreeMap<>();
            for (String s : holds) {
                int eq = s.lastIndexOf('=');
                h.put(s.substring(0, eq), Long.parseLong(s.substring(eq + 1)));
            }
            actions.add(new Action(kind, labMs, attempt, h));
            return this;
        }
    }

    static final class Lab {
        static final org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper JSON =
                new org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper();

        // What the job's functions and the driver share (one JVM: the MiniCluster runs in it).
        static volatile long originNanos;
        static volatile long originWallMs;
        static volatile int job;
        static volatile Script script = new Script();
        static final Set<String> fired = ConcurrentHashMap.newKeySet();
        static final Map<String, Boolean> held = new ConcurrentHashMap<>();
        static final Map<Integer, Long> restoredFrom = new ConcurrentHashMap<>();
        static final Map<Integer, Long> attemptStartedMs = new ConcurrentHashMap<>();
        static final Map<Integer, Long> crashedAtMs = new ConcurrentHashMap<>();
        static final Map<Integer, String> crashedTask = new ConcurrentHashMap<>();
        static final Set<String> observedKeys = ConcurrentHashMap.newKeySet();
        static final Set<String> finishedSources = ConcurrentHashMap.newKeySet();
        static final AtomicLong commitSeq = new AtomicLong();
        static volatile java.io.PrintWriter observe;

        final Path dir;
        final boolean ui;
        final String statsFile;
        final int port;
        final MiniCluster cluster;
        final boolean ownCluster;
        final List<JsonNode> statsJobs = new ArrayList<>();
        final Map<String, String> sinkKinds = new TreeMap<>();
        final List<List<String>> savepoints = new ArrayList<>();
        final List<JobID> jobIds = new ArrayList<>();
        String summary;

        private Lab(Path dir, boolean ui, String statsFile, int port, MiniCluster shared) throws Exception {
            this.dir = dir; this.ui = ui; this.statsFile = statsFile; this.port = port;
            if (shared != null) {
                cluster = shared; ownCluster = false;
            } else {
                Configuration conf = new Configuration();
                conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
                conf.set(RestOptions.ADDRESS, "127.0.0.1");
                conf.set(RestOptions.BIND_PORT, ui ? String.valueOf(port) : "0");
                clusterDefaults(conf);
                cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                        .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(SLOTS).build());
                cluster.start();
                ownCluster = true;
            }
        }

        /** Settings every local cluster of the lab uses: fresh REST statistics, a long history. */
        static void clusterDefaults(Configuration conf) {
            conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 1000);
            conf.set(WebOptions.MAX_EXCEPTION_HISTORY_SIZE, 1000);
            conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(50));
            conf.set(RestOptions.CACHE_EXECUTION_GRAPH_TIMEOUT, Duration.ofMillis(50));
        }

        /** Options: --dir DIR, --ui [--port N], --stats FILE, --observe FILE. */
        static Lab start(String[] args, MiniCluster shared) throws Exception {
            Path dir = null; boolean ui = false; String stats = null, obs = null; int port = 8081;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--dir": dir = Paths.get(args[++i]); break;
                    case "--ui": ui = true; break;
                    case "--port": port = Integer.parseInt(args[++i]); break;
                    case "--stats": stats = args[++i]; break;
                    case "--observe": obs = args[++i]; break;
                    default: throw new IllegalArgumentException("unknown option " + args[i]
                            + " (expected --dir DIR, --ui, --port N, --stats FILE, --observe FILE)");
                }
            }
            if (dir == null) dir = Files.createTempDirectory("checkpoint-lab-");
            Files.createDirectories(dir);
            originNanos = 0; job = 0; fired.clear(); held.clear(); restoredFrom.clear();
            attemptStartedMs.clear(); observedKeys.clear(); finishedSources.clear();
            observe = obs == null ? null : new java.io.PrintWriter(Files.newBufferedWriter(Paths.get(obs)), true);
            return new Lab(dir.toAbsolutePath(), ui, stats, port, shared);
        }

        /** A directory of this run, as a file: URI (checkpoints, savepoints). */
        String uri(String name) { return dir.resolve(name).toUri().toString(); }

        /** The directory of a sink's external "topic". */
        String topic(String uid, String kind) { sinkKinds.put(uid, kind); return dir.resolve("topics").resolve(uid).toString(); }

        /** The k-th savepoint of job `job` of this run (-1: its last), for `execution.state-recovery.path`. */
        String savepoint(int job, int k) {
            List<String> s = job < savepoints.size() ? savepoints.get(job) : List.of();
            if (s.isEmpty()) throw new IllegalStateException("job " + job + " took no savepoint to restore");
            return s.get(k < 0 ? s.size() - 1 : k);
        }

        /** The latest checkpoint job `job` of this run retained (externalized), for `execution.state-recovery.path`. */
        String retainedCheckpoint(int job) throws Exception {
            Path d = dir.resolve("checkpoints").resolve(jobIds.get(job).toString());
            Path best = null;
            long bestId = -1;
            for (Path p : sortedFiles(d)) {
                String n = p.getFileName().toString();
                if (n.startsWith("chk-") && Files.exists(p.resolve("_metadata"))) {
                    long id = Long.parseLong(n.substring(4));
                    if (id > bestId) { bestId = id; best = p; }
                }
            }
            if (best == null) throw new IllegalStateException("job " + job + " retained no checkpoint to restore");
            return best.toUri().toString();
        }

        // ---- time ----

        /** Lab time: ms since the first source of the run started, divided by the time scale. */
        static long now() {
            long o = originNanos;
            return o == 0 ? 0 : (long) ((System.nanoTime() - o) / 1e6 / TIME_SCALE);
        }

        static void started() {
            synchronized (Lab.class) {
                if (originNanos == 0) { originNanos = System.nanoTime(); originWallMs = System.currentTimeMillis(); }
            }
        }

        /** Sleeps until lab time `labMs` (or until `running` turns false). */
        static void sleepUntil(long labMs, java.util.function.BooleanSupplier running) throws InterruptedException {
            while (running.getAsBoolean()) {
                long wait = (long) ((labMs - now()) * TIME_SCALE);
                if (wait <= 0) return;
                Thread.sleep(Math.min(wait, 50));
            }
        }

        // ---- hooks the job's functions call ----

        /** The operator's uid: its task name without Flink's "Source: " / "Sink: " prefix. */
        static String opOf(RuntimeContext rc) {
            return strip(rc.getTaskInfo().getTaskName());
        }

        static String strip(String name) {
            if (name == null) return null;
            for (String prefix : new String[] {"Source: ", "Sink: "})
                if (name.startsWith(prefix)) return name.substring(prefix.length());
            return name;
        }

        /** "<uid>#<subtask>", as the lab names a subtask. */
        static String taskOf(RuntimeContext rc) {
            return opOf(rc) + "#" + rc.getTaskInfo().getIndexOfThisSubtask();
        }

        /** A function's state was initialized (restored or fresh). */
        static void initialized(RuntimeContext rc, ManagedInitializationContext ctx) {
            int attempt = rc.getTaskInfo().getAttemptNumber();
            restoredFrom.putIfAbsent(attempt, ctx.getRestoredCheckpointId().orElse(-1));
            attemptStartedMs.putIfAbsent(attempt, now());
        }

        /** A source restored (or assigned) its offsets. */
        static void offsets(RuntimeContext rc, ManagedInitializationContext ctx, Map<Integer, Long> offsets) {
            initialized(rc, ctx);
            if (observe != null) {
                ObjectNode o = event("offsets", rc);
                o.put("restored", ctx.isRestored());
                ObjectNode m = o.putObject("offsets");
                offsets.forEach((p, off) -> m.put(String.valueOf(p), off));
                write(o);
            }
        }

        /** A keyed function read a key's state (`value`: what it held, null if nothing). */
        static void keyed(RuntimeContext rc, String key, Object value) {
            if (observe == null) return;
            String id = job + "/" + taskOf(rc) + "/" + rc.getTaskInfo().getAttemptNumber() + "/" + key;
            if (!observedKeys.add(id)) return;
            ObjectNode o = event("key", rc);
            o.put("key", key);
            o.set("first_value", JSON.valueToTree(value));
            write(o);
        }

        /** A broadcast function saw its rules for the first time in this attempt. */
        static void rules(RuntimeContext rc, Map<String, Long> rules) {
            if (observe == null) return;
            String id = job + "/" + taskOf(rc) + "/" + rc.getTaskInfo().getAttemptNumber() + "/rules";
            if (!observedKeys.add(id)) return;
            ObjectNode o = event("rules", rc);
            ObjectNode m = o.putObject("rules");
            rules.forEach(m::put);
            write(o);
        }

        /** A two-phase-commit sink committed a transaction. */
        static void committed(RuntimeContext rc, String txn, boolean recovered) {
            if (observe == null) return;
            ObjectNode o = event("commit", rc);
            o.put("txn", txn);
            o.put("recovered", recovered);
            write(o);
        }

        /** After a function processed (a source: emitted) `e`: the script's crash, if it lands here. */
        static void processed(RuntimeContext rc, Event e) throws InterruptedException {
            Long busy = PROCESS_MS.get(opOf(rc));
            if (busy != null) Thread.sleep((long) (busy * TIME_SCALE));
            for (Crash c : CRASHES) {
                if (c.job != job || c.attempt != rc.getTaskInfo().getAttemptNumber()) continue;
                if (!c.task.equals(taskOf(rc))) continue;
                if (c.source != null && !(c.source.equals(e.source) && c.partition == e.partition && e.offset >= c.offset)) continue;
                String id = c.job + "/" + c.task + "/" + c.attempt;
                if (!fired.add(id)) continue;
                crashedAtMs.putIfAbsent(c.attempt, now());
                crashedTask.putIfAbsent(c.attempt, c.task);
                if (observe != null) { ObjectNode o = event("crash", rc); o.put("lab_ms", c.labMs); write(o); }
                throw new RuntimeException("checkpoint-lab: scripted crash of " + c.task + " (the lab's crash at " + c.labMs + " ms)");
            }
        }

        /** The offset a source partition must not read past yet (a savepoint of the script waits there). */
        static long holdOffset(RuntimeContext rc, String uid, int partition) {
            for (Action a : script.actions) {
                if (a.done || a.holds.isEmpty()) continue;
                if (a.attempt != rc.getTaskInfo().getAttemptNumber()) return Long.MAX_VALUE;
                Long h = a.holds.get(uid + "#" + partition);
                return h == null ? Long.MAX_VALUE : h;
            }
            return Long.MAX_VALUE;
        }

        /** A source subtask read its partitions to their end. */
        static void sourceFinished(RuntimeContext rc) {
            finishedSources.add(rc.getTaskInfo().getAttemptNumber() + "/" + taskOf(rc));
            if (observe != null) write(event("source_finished", rc));
        }

        /** A source subtask has read everything up to the holds (or everything). */
        static void sourceHeld(RuntimeContext rc) {
            for (int i = 0; i < script.actions.size(); i++) {
                Action a = script.actions.get(i);
                if (a.done || a.holds.isEmpty()) continue;
                if (a.attempt == rc.getTaskInfo().getAttemptNumber()) held.put(i + "/" + taskOf(rc), true);
                return;
            }
        }

        static ObjectNode event(String kind, RuntimeContext rc) {
            ObjectNode o = JSON.createObjectNode();
            o.put("kind", kind);
            o.put("job", job);
            o.put("task", taskOf(rc));
            o.put("attempt", rc.getTaskInfo().getAttemptNumber());
            o.put("lab_ms", now());
            return o;
        }

        static synchronized void write(ObjectNode o) {
            java.io.PrintWriter w = observe;
            if (w != null) w.println(o.toString());
        }

        // ---- running a job ----

        /** Runs one job of the lesson on the cluster, playing `s`; returns its summary line. */
        String execute(StreamExecutionEnvironment env, String name, Script s) throws Exception {
            return execute(env.getStreamGraph(), name, s);
        }

        String execute(StreamGraph graph, String name, Script s) throws Exception {
            graph.setJobName(name);
            script = s;
            held.clear(); restoredFrom.clear(); attemptStartedMs.clear(); finishedSources.clear(); crashedAtMs.clear(); crashedTask.clear();
            savepoints.add(new ArrayList<>());
            JobID id;
            try {
                id = cluster.submitJob(graph.getJobGraph(Lab.class.getClassLoader(), new JobID())).get().getJobID();
            } catch (ExecutionException e) {
                System.err.println("checkpoint-lab: Flink refused job " + name + ": " + e.getCause());
                return refused(name, e.getCause());
            }
            jobIds.add(id);
            JobClient client = new MiniClusterJobClient(id, cluster, Thread.currentThread().getContextClassLoader(),
                    MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
            boolean stoppedAtBound = false;
            long nextPoll = 0, nextFinal = 0;
            Map<String, JsonNode> stats = new TreeMap<>();
            while (true) {
                JobStatus status = client.getJobStatus().get();
                if (status.isGloballyTerminalState()) break;
                long t = now();
                for (int i = 0; i < s.actions.size(); i++) {
                    Action a = s.actions.get(i);
                    if (a.done) continue;
                    if (a.holds.isEmpty()) {
                        if (originNanos != 0 && t >= a.labMs) { timed(client, id, a); a.done = true; }
                    } else if (allHeld(i)) {
                        takeSavepoint(client, a.kind);
                        a.done = true;
                    }
                    break; // one action at a time, in script order
                }
                if (s.manualOnly && System.currentTimeMillis() >= nextFinal && allFinished()) {
                    cluster.triggerCheckpoint(id); // the final checkpoint: Flink's would wait for the next interval
                    nextFinal = System.currentTimeMillis() + 1000;
                }
                if (s.untilMs != null && originNanos != 0 && t > s.untilMs) {
                    client.cancel().get();
                    stoppedAtBound = true;
                }
                if (statsFile != null && System.currentTimeMillis() >= nextPoll) {
                    poll(id, stats);
                    nextPoll = System.currentTimeMillis() + 200;
                }
                Thread.sleep(5);
            }
            JobResult result = cluster.requestJobResult(id).get();
            if (statsFile != null) {
                poll(id, stats);
                statsJobs.add(statsOf(id, name, stats));
                writeStats();
            }
            summary = summarize(id, name, result, stoppedAtBound);
            job++;
            return summary;
        }

        private boolean allHeld(int action) {
            for (Map.Entry<String, Integer> src : SOURCES.get(job).entrySet())
                for (int i = 0; i < src.getValue(); i++)
                    if (!held.containsKey(action + "/" + src.getKey() + "#" + i)) return false;
            return true;
        }

        private boolean allFinished() {
            for (Map.Entry<String, Integer> src : SOURCES.get(job).entrySet())
                for (int i = 0; i < src.getValue(); i++) {
                    boolean any = false;
                    for (String f : finishedSources) any |= f.endsWith("/" + src.getKey() + "#" + i);
                    if (!any) return false;
                }
            return true;
        }

        private void takeSavepoint(JobClient client, String kind) throws Exception {
            String path = kind.equals("savepoint")
                    ? client.triggerSavepoint(uri("savepoints"), SavepointFormatType.CANONICAL).get()
                    : client.stopWithSavepoint(false, uri("savepoints"), SavepointFormatType.CANONICAL).get();
            savepoints.get(job).add(path);
        }

        private void timed(JobClient client, JobID id, Action a) throws Exception {
            switch (a.kind) {
                case "savepoint": case "stop_with_savepoint": takeSavepoint(client, a.kind); break;
                case "trigger_checkpoint": cluster.triggerCheckpoint(id).get(); break;
                case "cancel": client.cancel().get(); break;
                default: throw new IllegalStateException(a.kind);
            }
        }

        /** The job was refused at submission or restore: the summary of a job that never ran. */
        private String refused(String name, Throwable cause) throws Exception {
            ObjectNode o = JSON.createObjectNode();
            o.put("scenario", SCENARIO);
            o.put("job_status", "refused");
            o.put("failure_reason", rootMessage(cause));
            summary = o.toString();
            job++;
            return summary;
        }

        static String rootMessage(Throwable t) {
            String m = String.valueOf(t);
            for (Throwable c = t; c != null; c = c.getCause()) {
                String cm = c.getMessage();
                if (cm != null && (cm.startsWith("Recovery is suppressed") || cm.startsWith("Failed to rollback")
                        || cm.startsWith("Exceeded checkpoint tolerable") || cm.contains("can not be restored")))
                    return cm;
                m = c.getClass().getName() + ": " + cm;
            }
            return m;
        }

        JsonNode rest(String path) throws Exception {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            URI base = cluster.getRestAddress().get();
            java.net.http.HttpResponse<String> r = http.send(
                    java.net.http.HttpRequest.newBuilder(base.resolve(path)).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(r.body());
        }

        /** Flink's REST API while the job runs: the history, and each finished checkpoint's details. */
        private void poll(JobID id, Map<String, JsonNode> stats) {
            try {
                String j = "/jobs/" + id;
                stats.put("config", rest(j + "/checkpoints/config"));
                JsonNode cps = rest(j + "/checkpoints");
                stats.put("checkpoints", cps);
                for (JsonNode h : cps.path("history")) {
                    String cid = h.path("id").asText();
                    String st = h.path("status").asText();
                    if (stats.containsKey("details/" + cid) && !"IN_PROGRESS".equals(st)) continue;
                    JsonNode d = rest(j + "/checkpoints/details/" + cid);
                    stats.put("details/" + cid, d);
                    d.path("tasks").fieldNames().forEachRemaining(vid -> {
                        try { stats.put("subtasks/" + cid + "/" + vid, rest(j + "/checkpoints/details/" + cid + "/subtasks/" + vid)); }
                        catch (Exception ignored) { }
                    });
                }
                if (!stats.containsKey("vertices")) stats.put("vertices", rest(j));
            } catch (Exception e) {
                // The job may be gone between two requests; the next poll (or the final one) catches up.
            }
        }

        private JsonNode statsOf(JobID id, String name, Map<String, JsonNode> stats) {
            ObjectNode o = JSON.createObjectNode();
            o.put("job_id", id.toString());
            o.put("name", name);
            o.set("job", stats.get("vertices"));
            o.set("config", stats.get("config"));
            o.set("checkpoints", stats.get("checkpoints"));
            ObjectNode details = o.putObject("details");
            ObjectNode subtasks = o.putObject("subtasks");
            stats.forEach((k, v) -> {
                String[] p = k.split("/");
                if (p[0].equals("details")) details.set(p[1], v);
                if (p[0].equals("subtasks")) {
                    ObjectNode c = subtasks.has(p[1]) ? (ObjectNode) subtasks.get(p[1]) : subtasks.putObject(p[1]);
                    c.set(p[2], v);
                }
            });
            return o;
        }

        private void writeStats() throws Exception {
            ObjectNode o = JSON.createObjectNode();
            o.put("format", "checkpoint-lab flink stats 1");
            o.put("flink_version", org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
            o.put("scenario", SCENARIO);
            o.put("time_scale", TIME_SCALE);
            o.putArray("jobs").addAll(statsJobs);
            Files.writeString(Paths.get(statsFile), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(o) + "\n");
        }

        /** The summary of a finished job, in the shape of `lab run`'s. */
        private String summarize(JobID id, String name, JobResult result, boolean stoppedAtBound) throws Exception {
            ObjectNode o = JSON.createObjectNode();
            o.put("scenario", SCENARIO);
            o.put("seed", SEED);
            o.put("end_ms", now());
            String status = result.getJobStatus().map(st -> st.name().toLowerCase()).orElse("unknown");
            o.put("job_status", stoppedAtBound ? "running" : status);
            result.getSerializedThrowable().ifPresent(t ->
                    o.put("failure_reason", rootMessage(t.deserializeError(Lab.class.getClassLoader()))));
            ArrayNode cps = o.putArray("checkpoints");
            for (JsonNode h : rest("/jobs/" + id + "/checkpoints").path("history")) {
                ObjectNode c = cps.addObject();
                c.put("id", h.path("id").asLong());
                c.put("kind", h.path("is_savepoint").asBoolean() ? "savepoint" : "checkpoint");
                String st = h.path("status").asText();
                c.put("status", st.equals("COMPLETED") ? "completed" : st.equals("FAILED") ? "aborted" : "in_progress");
                long trig = wallToLab(h.path("trigger_timestamp").asLong());
                c.put("trigger_ms", trig);
                if (st.equals("IN_PROGRESS")) c.putNull("end_ms");
                else c.put("end_ms", trig + (long) (h.path("end_to_end_duration").asLong() / TIME_SCALE));
                if (h.hasNonNull("failure_message")) c.put("reason", h.path("failure_message").asText()); else c.putNull("reason");
                c.put("alignment_ms", longestAlignment(id, h.path("id").asLong()));
                c.putNull("persisted_in_flight_records"); // Flink counts bytes: persisted_data_bytes
                c.put("state_bytes", h.path("state_size").asLong());
                c.put("uploaded_bytes", h.path("checkpointed_size").asLong());
                c.put("persisted_data_bytes", h.path("persisted_data").asLong());
            }
            List<JsonNode> sorted = new ArrayList<>();
            cps.forEach(sorted::add);
            sorted.sort(Comparator.comparingLong(n -> n.path("id").asLong()));
            cps.removeAll();
            cps.addAll(sorted);
            ArrayNode failures = o.putArray("failures");
            List<JsonNode> entries = new ArrayList<>();
            rest("/jobs/" + id + "/exceptions").path("exceptionHistory").path("entries").forEach(entries::add);
            entries.sort(Comparator.comparingLong(n -> n.path("timestamp").asLong()));
            for (int i = 0; i < entries.size(); i++) {
                JsonNode e = entries.get(i);
                ObjectNode f = failures.addObject();
                Long crashed = crashedAtMs.get(i);
                f.put("at_ms", crashed != null ? crashed : wallToLab(e.path("timestamp").asLong()));
                // The failure that ends the job is recorded as the JobException without its task.
                String task = strip(taskName(e.path("taskName").asText(null)));
                f.put("task", task != null ? task : crashedTask.get(i));
                Long restored = restoredFrom.get(i + 1);
                if (restored == null || restored < 0) f.putNull("restored_from"); else f.put("restored_from", restored);
                Long restarted = attemptStartedMs.get(i + 1);
                if (restarted == null) f.putNull("restarted_ms"); else f.put("restarted_ms", restarted);
                String stack = e.path("stacktrace").asText("");
                f.put("reason", stack.lines().findFirst().orElse(e.path("exceptionName").asText()));
            }
            ObjectNode sinks = o.putObject("sinks");
            for (Map.Entry<String, String> s : sinkKinds.entrySet()) sinks.set(s.getKey(), readTopic(s.getKey(), s.getValue()));
            o.putArray("warnings");
            ObjectNode flink = o.putObject("flink");
            flink.put("version", org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
            flink.put("job_id", id.toString());
            flink.put("time_scale", TIME_SCALE);
            return o.toString();
        }

        /** The longest alignment among a checkpoint's subtasks (REST: per-subtask details), in lab ms. */
        private long longestAlignment(JobID id, long checkpoint) {
            long longest = 0;
            try {
                String d = "/jobs/" + id + "/checkpoints/details/" + checkpoint;
                java.util.Iterator<String> vertices = rest(d).path("tasks").fieldNames();
                while (vertices.hasNext())
                    for (JsonNode st : rest(d + "/subtasks/" + vertices.next()).path("subtasks"))
                        longest = Math.max(longest, st.path("alignment").path("duration").asLong());
            } catch (Exception e) {
                // Details of a checkpoint may be gone; the alignment then counts as 0.
            }
            return (long) (longest / TIME_SCALE);
        }

        static long wallToLab(long wallMs) { return (long) ((wallMs - originWallMs) / TIME_SCALE); }

        /** "sum (1/2)#0" or "sum (1/2)" → "sum#0". */
        static String taskName(String flink) {
            if (flink == null) return null;
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.*) \\((\\d+)/\\d+\\)").matcher(flink);
            return m.find() ? m.group(1) + "#" + (Integer.parseInt(m.group(2)) - 1) : flink;
        }

        /** What consumers of a sink's topic see (read_committed, and read_uncommitted in addition). */
        private JsonNode readTopic(String uid, String kind) throws Exception {
            Path t = dir.resolve("topics").resolve(uid);
            ObjectNode o = JSON.createObjectNode();
            ArrayNode committed = o.putArray("committed");
            ArrayNode uncommitted = o.putArray("uncommitted");
            if (kind.equals("two_phase_commit")) {
                for (Path f : sortedFiles(t.resolve("committed"))) readLines(f, committed);
                for (String d : List.of("open", "pending", "aborted"))
                    for (Path f : sortedFiles(t.resolve(d))) readLines(f, uncommitted);
                o.put("aborted_transactions", sortedFiles(t.resolve("aborted")).size());
            } else {
                Path log = t.resolve("log.jsonl");
                if (Files.exists(log)) readLines(log, committed);
                o.put("aborted_transactions", 0);
                if (kind.equals("idempotent")) {
                    ObjectNode table = o.putObject("table");
                    for (Path f : sortedFiles(t.resolve("table")))
                        table.put(java.net.URLDecoder.decode(f.getFileName().toString(), "UTF-8"),
                                Long.parseLong(Files.readString(f).trim()));
                }
            }
            return o;
        }

        static List<Path> sortedFiles(Path d) throws Exception {
            List<Path> out = new ArrayList<>();
            if (!Files.isDirectory(d)) return out;
            try (java.util.stream.Stream<Path> s = Files.list(d)) {
                s.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().forEach(out::add);
            }
            return out;
        }

        static void readLines(Path f, ArrayNode into) throws Exception {
            for (String line : Files.readAllLines(f)) if (!line.isBlank()) into.add(JSON.readTree(line));
        }

        /** After the last job: keep the web UI up until Ctrl-C (--ui), else shut the cluster down. */
        void finish() throws Exception {
            if (observe != null) observe.flush();
            if (ui && ownCluster) {
                System.err.println("Flink's web UI: " + cluster.getRestAddress().get() + "  (Ctrl-C to stop)");
                CountDownLatch forever = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> { cluster.closeAsync(); forever.countDown(); }));
                forever.await();
            }
            if (ownCluster) cluster.close();
        }

        // ---- the sinks' external system: files ----

        static synchronized void append(Path file, String line) throws java.io.IOException {
            Files.createDirectories(file.getParent());
            Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        static String line(Event e) {
            ObjectNode o = JSON.createObjectNode();
            if (e.key == null) o.putNull("key"); else o.put("key", e.key);
            o.put("value", e.value);
            if (observe != null) o.put("origin", e.source + "#" + e.partition + "@" + e.offset);
            return o.toString();
        }
    }
