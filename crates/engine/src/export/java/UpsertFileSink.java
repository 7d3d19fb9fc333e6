//! Fragment: the `idempotent` sink.
    /**
//@en An idempotent sink: an upsert by key into a table (one file per key, replaced atomically), so a
//@en replay overwrites a key with the same value; every write is also appended to the topic's log.
//@zh 幂等 sink：按 key upsert 到一张表（每个 key 一个文件，原子替换），重放时同一个 key 被写入
//@zh-Hant 冪等 sink：按 key upsert 到一張表（每個 key 一個檔案，原子替換），重放時同一個 key 被寫入
//@zh 相同的值；每次写入也追加到 topic 的日志中。
//@zh-Hant 相同的值；每次寫入也追加到 topic 的日誌中。
     */
    public static class UpsertFileSink extends RichSinkFunction<Event> {
        private final String topic;

        UpsertFileSink(String topic) { this.topic = topic; }

        @Override
        public void invoke(Event e, Context ctx) throws Exception {
            Path table = Paths.get(topic, "table");
            Files.createDirectories(table);
            Path tmp = Files.createTempFile(table, ".upsert", "");
            Files.writeString(tmp, Long.toString(e.value));
            Files.move(tmp, table.resolve(java.net.URLEncoder.encode(String.valueOf(e.key), "UTF-8")),
                    StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Lab.append(Paths.get(topic, "log.jsonl"), Lab.line(e));
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
