//! Fragment: the `at_least_once` sink.
    /**
//@en A plain "topic": every record is appended at once, without transactions, so what was written
//@en after the last checkpoint is written again after a restore (duplicates).
//@zh 普通的“topic”：每条记录立即追加，没有事务，所以上次检查点之后写出的数据在恢复后会再写一遍
//@zh-Hant 普通的「topic」：每條記錄立即追加，沒有事務，所以上次檢查點之後寫出的資料在恢復後會再寫一遍
//@zh （出现重复）。
//@zh-Hant （出現重複）。
     */
    public static class AppendingFileSink extends RichSinkFunction<Event> {
        private final String topic;

        AppendingFileSink(String topic) { this.topic = topic; }

        @Override
        public void invoke(Event e, Context ctx) throws Exception {
            Lab.append(Paths.get(topic, "log.jsonl"), Lab.line(e));
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
