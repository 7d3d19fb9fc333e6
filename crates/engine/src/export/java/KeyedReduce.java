//! Fragment: `keyed_reduce`: a ReducingState per key.
    /**
//@en KeyedReduce: a ReducingState<Long> per key ("reduce") with the scenario's reduce function;
//@en emits (key, reduced value).
//@zh KeyedReduce：每个 key 一个 ReducingState<Long>（"reduce"），使用场景中的 reduce 函数；
//@zh-Hant KeyedReduce：每個 key 一個 ReducingState<Long>（"reduce"），使用場景中的 reduce 函式；
//@zh 输出 (key, 归约后的值)。
//@zh-Hant 輸出 (key, 歸約後的值)。
     */
    public static class KeyedReduce extends KeyedProcessFunction<String, Event, Event> {
        private final String function;
        private final StateTtlConfig ttl;
        private transient ReducingState<Long> reduce;

        KeyedReduce(String function, StateTtlConfig ttl) { this.function = function; this.ttl = ttl; }

        @Override
        public void open(OpenContext ctx) {
            String f = function;
            ReduceFunction<Long> fn = (a, b) -> f.equals("sum") ? a + b : f.equals("max") ? Math.max(a, b) : Math.min(a, b);
            ReducingStateDescriptor<Long> d = new ReducingStateDescriptor<>("reduce", fn, Types.LONG);
            if (ttl != null) d.enableTimeToLive(ttl);
            reduce = getRuntimeContext().getReducingState(d);
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
            Lab.keyed(getRuntimeContext(), e.key, null); // placement only: with TTL a read has effects //#observe
            reduce.add(e.value);
            Long r = reduce.get();
            if (r != null) out.collect(e.withValue(r));
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
