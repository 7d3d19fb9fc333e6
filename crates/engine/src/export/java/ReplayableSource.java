//! Fragment: the source (a replayable log, Kafka-like) with offsets in operator list state.
    /**
//@en One partition of a source's log: due times (lab ms), keys, values.
//@zh source 日志的一个分区：各条记录的到期时间（实验室毫秒）、key 和 value。
//@zh-Hant source 日誌的一個分區：各條記錄的到期時間（實驗室毫秒）、key 和 value。
     */
    static final class Partition implements java.io.Serializable {
        final long[] at; final String[] keys; final long[] values;
        Partition(long[] at, String[] keys, long[] values) { this.at = at; this.keys = keys; this.values = values; }

//@en     // keyIndexes' characters: the position of the record's key in keyNames.
//@zh     // keyIndexes 中的每个字符：该记录的 key 在 keyNames 中的位置。
//@zh-Hant     // keyIndexes 中的每個字元：該記錄的 key 在 keyNames 中的位置。
        static final String KEY_CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

//@en     // A generated partition: record i is due at every × (i + 1); keys drawn by the lab's seeded generator.
//@zh     // 生成的分区：第 i 条记录在 every × (i + 1) 时到期；key 由实验室带种子的生成器抽取。
//@zh-Hant     // 生成的分區：第 i 條記錄在 every × (i + 1) 時到期；key 由實驗室帶種子的生成器抽取。
        static Partition generated(long every, long[] values, String[] keyNames, String keyIndexes) {
            int n = values.length;
            long[] at = new long[n];
            String[] keys = new String[n];
            for (int i = 0; i < n; i++) {
                at[i] = every * (i + 1);
                keys[i] = keyNames.length == 0 ? null : keyNames[KEY_CODES.indexOf(keyIndexes.charAt(i))];
            }
            return new Partition(at, keys, values);
        }

//@en     // Values 1, 2, …, n.
//@zh     // 值 1、2、……、n。
//@zh-Hant     // 值 1、2、……、n。
        static long[] sequence(int n) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) v[i] = i + 1;
            return v;
        }

//@en     // Comma-separated values.
//@zh     // 逗号分隔的值。
//@zh-Hant     // 逗號分隔的值。
        static long[] values(String csv) {
            return java.util.Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
        }
    }

    /**
//@en The lab's source: a replayable log of partitions (as Kafka's). The next offset of each partition
//@en it reads lives in operator list state, so a restore rewinds it; on a fresh start partition p
//@en goes to subtask p mod parallelism. Record i is emitted no earlier than its time in the lab.
//@zh 实验室的 source：由若干分区组成的可重放日志（类似 Kafka）。每个分区下一个要读的 offset
//@zh-Hant 實驗室的 source：由若干分區組成的可重放日誌（類似 Kafka）。每個分區下一個要讀的 offset
//@zh 保存在算子的 list state 中，所以恢复时会回退；全新启动时分区 p 分给子任务 p mod 并行度。
//@zh-Hant 儲存在算子的 list state 中，所以恢復時會回退；全新啟動時分區 p 分給子任務 p mod 並行度。
//@zh 第 i 条记录不早于它在实验室中的时间发出。
//@zh-Hant 第 i 條記錄不早於它在實驗室中的時間發出。
     */
    public static class ReplayableSource extends RichParallelSourceFunction<Event> implements CheckpointedFunction {
        private final String uid;
        private final Partition[] partitions;
        private final boolean union;
        private final long emitIntervalMs;
        private transient ListState<Tuple2<Integer, Long>> offsetState;
        private transient TreeMap<Integer, Long> offsets;
        private volatile boolean running = true;

        ReplayableSource(String uid, boolean union, long emitIntervalMs, Partition... partitions) {
            this.uid = uid; this.union = union; this.emitIntervalMs = emitIntervalMs; this.partitions = partitions;
        }

        @Override
        public void initializeState(FunctionInitializationContext ctx) throws Exception {
            ListStateDescriptor<Tuple2<Integer, Long>> descriptor =
                    new ListStateDescriptor<>("offsets", TypeInformation.of(new TypeHint<Tuple2<Integer, Long>>() {}));
//@en       // getListState: even-split redistribution on rescale; getUnionListState: every subtask gets all.
//@zh       // getListState：改并行度时均分（even-split）；getUnionListState：每个子任务拿到全部。
//@zh-Hant       // getListState：改並行度時均分（even-split）；getUnionListState：每個子任務拿到全部。
            offsetState = union
                    ? ctx.getOperatorStateStore().getUnionListState(descriptor)
                    : ctx.getOperatorStateStore().getListState(descriptor);
            int me = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            int n = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            offsets = new TreeMap<>();
            if (ctx.isRestored()) {
                for (Tuple2<Integer, Long> e : offsetState.get())
                    if (!union || e.f0 % n == me) offsets.put(e.f0, e.f1);
            } else {
                for (int p = 0; p < partitions.length; p++) if (p % n == me) offsets.put(p, 0L);
            }
            Lab.offsets(getRuntimeContext(), ctx, offsets);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
            List<Tuple2<Integer, Long>> list = new ArrayList<>();
            offsets.forEach((p, o) -> list.add(Tuple2.of(p, o)));
            offsetState.update(list);
        }

        @Override
        public void run(SourceContext<Event> ctx) throws Exception {
            Lab.started();
            long nextAllowed = 0;
            while (running) {
//@en           // The partition whose next record is due first (ties: the lowest index).
//@zh           // 选下一条记录最早到期的分区（相同则取编号最小的）。
//@zh-Hant           // 選下一條記錄最早到期的分區（相同則取編號最小的）。
                int best = -1;
                long due = Long.MAX_VALUE;
                boolean waiting = false;
                for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
                    int p = e.getKey();
                    long o = e.getValue();
                    if (o >= partitions[p].at.length) continue;
                    if (o >= Lab.holdOffset(getRuntimeContext(), uid, p)) { waiting = true; continue; }
                    if (partitions[p].at[(int) o] < due) { best = p; due = partitions[p].at[(int) o]; }
                }
                if (best < 0) {
                    Lab.sourceHeld(getRuntimeContext());
                    if (!waiting) {
//@en                   // Every partition is read to its end: the source finishes.
//@zh                   // 每个分区都已读完：source 结束。
//@zh-Hant                   // 每個分區都已讀完：source 結束。
                        Lab.sourceFinished(getRuntimeContext());
                        return;
                    }
                    Thread.sleep(1);
                    continue;
                }
                Lab.sleepUntil(Math.max(due, nextAllowed), () -> running);
                if (!running) return;
                Event e;
                synchronized (ctx.getCheckpointLock()) {
                    long o = offsets.get(best);
                    Partition part = partitions[best];
                    e = new Event(part.keys[(int) o], part.values[(int) o], uid, best, o);
                    ctx.collect(e);
                    offsets.put(best, o + 1);
                }
                nextAllowed = Lab.now() + emitIntervalMs;
                Lab.processed(getRuntimeContext(), e); //#script
            }
        }

        @Override
        public void cancel() {
            running = false;
        }
    }
