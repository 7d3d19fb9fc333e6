//! Fragment: the `two_phase_commit` sink.
    /**
//@en A transaction of the file "topic": its id (the file's name).
//@zh 文件“topic”的一个事务：它的 id（即文件名）。
//@zh-Hant 檔案「topic」的一個事務：它的 id（即檔名）。
     */
    public static class Txn {
        public String id;
        public Txn() {}
        Txn(String id) { this.id = id; }
    }

    /**
//@en A transactional "topic" on local files, as the study notes' TwoPhaseCommitSinkFunction example:
//@en beginTransaction = a new file in open/, invoke = append, preCommit = move it to pending/ (at the
//@en checkpoint barrier), commit = rename it into committed/ (when the checkpoint completes), abort =
//@en move it to aborted/. A read_committed consumer reads committed/ only.
//@zh 本地文件上的事务性“topic”，即学习笔记中 TwoPhaseCommitSinkFunction 的例子：beginTransaction =
//@zh-Hant 本地檔案上的事務性「topic」，即學習筆記中 TwoPhaseCommitSinkFunction 的例子：beginTransaction =
//@zh 在 open/ 新建文件，invoke = 追加写入，preCommit = 移到 pending/（检查点 barrier 到达时），
//@zh-Hant 在 open/ 新建檔案，invoke = 追加寫入，preCommit = 移到 pending/（檢查點 barrier 到達時），
//@zh commit = 重命名到 committed/（检查点完成时），abort = 移到 aborted/。read_committed 的
//@zh-Hant commit = 重新命名到 committed/（檢查點完成時），abort = 移到 aborted/。read_committed 的
//@zh 消费者只读 committed/。
//@zh-Hant 消費者只讀 committed/。
     */
    public static class TransactionalFileSink extends TwoPhaseCommitSinkFunction<Event, Txn, Void> {
        private final String topic;

        TransactionalFileSink(String topic) {
            super(TypeInformation.of(Txn.class).createSerializer(new SerializerConfigImpl()), VoidSerializer.INSTANCE);
            this.topic = topic;
        }

        private Path file(String dir, Txn t) { return Paths.get(topic, dir, t.id); }

        @Override
        protected Txn beginTransaction() throws Exception {
            Txn t = new Txn(Lab.taskOf(getRuntimeContext()).replace('#', '-') + "-" + UUID.randomUUID());
            Files.createDirectories(file("open", t).getParent());
            Files.createFile(file("open", t));
            return t;
        }

        @Override
        protected void invoke(Txn t, Event e, Context ctx) throws Exception {
            Lab.append(file("open", t), Lab.line(e));
            Lab.processed(getRuntimeContext(), e); //#script
        }

        @Override
        protected void preCommit(Txn t) throws Exception {
            Files.createDirectories(file("pending", t).getParent());
            Files.move(file("open", t), file("pending", t), StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        protected void commit(Txn t) {
            commit(t, false);
        }

        @Override
        protected void recoverAndCommit(Txn t) {
            commit(t, true);
        }

        private void commit(Txn t, boolean recovered) {
            try {
                Path pending = file("pending", t);
//@en           // Committed before the failure: commit is idempotent.
//@zh           // 故障前已提交：提交是幂等的。
//@zh-Hant           // 故障前已提交：提交是冪等的。
                if (!Files.exists(pending)) return;
                Path committed = Paths.get(topic, "committed", String.format("%012d-%s", Lab.commitSeq.incrementAndGet(), t.id));
                Files.createDirectories(committed.getParent());
                Files.move(pending, committed, StandardCopyOption.ATOMIC_MOVE);
                Lab.committed(getRuntimeContext(), t.id, recovered); //#observe
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        protected void abort(Txn t) {
            try {
                for (String dir : new String[] {"open", "pending"}) {
                    Path f = file(dir, t);
                    if (Files.exists(f)) {
                        Files.createDirectories(file("aborted", t).getParent());
                        Files.move(f, file("aborted", t), StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
