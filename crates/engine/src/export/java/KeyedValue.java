//! Fragment: `keyed_count` / `keyed_sum`: one ValueState per key. NAME, STATE, UPDATE replaced.
    /**
//@en NAME: a ValueState<Long> per key (its name: "STATE"); emits (key, STATE so far).
//@zh NAME：每个 key 一个 ValueState<Long>（名为 "STATE"）；输出 (key, 目前的 STATE)。
//@zh-Hant NAME：每個 key 一個 ValueState<Long>（名為 "STATE"）；輸出 (key, 目前的 STATE)。
     */
    public static class NAME extends KeyedProcessFunction<String, Event, Event> {
        private transient ValueState<Long> STATE;

        @Override
        public void open(OpenContext ctx) {
            STATE = getRuntimeContext().getState(new ValueStateDescriptor<>("STATE", Types.LONG));
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
            Long current = STATE.value();
            Lab.keyed(getRuntimeContext(), e.key, current); //#observe
            long next = UPDATE;
            STATE.update(next);
            out.collect(e.withValue(next));
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
