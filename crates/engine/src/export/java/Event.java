//! Fragment: the record type of every stream of the exported job.
    /**
//@en A record: key and value as in the lab; `source`, `partition` and `offset` say which
//@en source log entry it comes from (derived records keep their input's), as the lab's origin.
//@zh 一条记录：key 和 value 与实验室中相同；source、partition、offset 表示它来自哪个 source
//@zh-Hant 一條記錄：key 和 value 與實驗室中相同；source、partition、offset 表示它來自哪個 source
//@zh 日志的哪一条（派生记录沿用输入记录的），即实验室中的 origin。
//@zh-Hant 日誌的哪一條（派生記錄沿用輸入記錄的），即實驗室中的 origin。
     */
    public static class Event {
        public String key;
        public long value;
        public String source;
        public int partition;
        public long offset;

        public Event() {}

        Event(String key, long value, String source, int partition, long offset) {
            this.key = key; this.value = value; this.source = source; this.partition = partition; this.offset = offset;
        }

        Event withKey(String k) { return new Event(k, value, source, partition, offset); }
        Event withValue(long v) { return new Event(key, v, source, partition, offset); }

        @Override public String toString() { return "(" + key + ", " + value + ")"; }
    }
