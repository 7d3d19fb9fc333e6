//! Fragment: `keyed_window_count`: tumbling processing-time windows on a ListState.
    /**
//@en KeyedWindowCount: tumbling processing-time windows of windowMs ms per key, kept as Flink's
//@en WindowOperator keeps them: the open window's start in a ValueState ("window"), its records in a
//@en ListState ("contents"). As in the lab, a window fires when the key's first record of a later
//@en window arrives (no timers), emitting (key, number of records).
//@zh KeyedWindowCount：每个 key 按处理时间划分 windowMs 毫秒的滚动窗口，状态与 Flink 的
//@zh-Hant KeyedWindowCount：每個 key 按處理時間劃分 windowMs 毫秒的滾動窗口，狀態與 Flink 的
//@zh WindowOperator 相同：当前窗口起点在 ValueState（"window"）中，窗口内记录在 ListState
//@zh-Hant WindowOperator 相同：當前窗口起點在 ValueState（"window"）中，窗口內記錄在 ListState
//@zh （"contents"）中。与实验室一致，该 key 下一个窗口的第一条记录到达时窗口触发（不用定时器），
//@zh-Hant （"contents"）中。與實驗室一致，該 key 下一個窗口的第一條記錄到達時窗口觸發（不用定時器），
//@zh 输出 (key, 记录条数)。
//@zh-Hant 輸出 (key, 記錄條數)。
     */
    public static class KeyedWindowCount extends KeyedProcessFunction<String, Event, Event> {
        private final long windowMs;
        private final StateTtlConfig ttl;
        private transient ValueState<Long> window;
        private transient ListState<Long> contents;

        KeyedWindowCount(long windowMs, StateTtlConfig ttl) { this.windowMs = windowMs; this.ttl = ttl; }

        @Override
        public void open(OpenContext ctx) {
            ValueStateDescriptor<Long> w = new ValueStateDescriptor<>("window", Types.LONG);
            ListStateDescriptor<Long> c = new ListStateDescriptor<>("contents", Types.LONG);
            if (ttl != null) { w.enableTimeToLive(ttl); c.enableTimeToLive(ttl); }
            window = getRuntimeContext().getState(w);
            contents = getRuntimeContext().getListState(c);
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
            long now = Lab.now();
            long start = now - now % windowMs;
            Long open = window.value();
            Lab.keyed(getRuntimeContext(), e.key, open); //#observe
            if (open != null && open != start) {
                long count = 0;
                for (Long ignored : contents.get()) count++;
                contents.clear();
                if (count > 0) out.collect(e.withValue(count));
            }
            window.update(start);
            contents.add(e.value);
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
