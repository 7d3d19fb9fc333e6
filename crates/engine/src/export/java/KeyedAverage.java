//! Fragment: `keyed_average`: an AggregatingState per key.
    /**
//@en KeyedAverage: an AggregatingState per key ("average"): accumulator (sum, count), result sum / count;
//@en emits (key, average so far).
//@zh KeyedAverage：每个 key 一个 AggregatingState（"average"）：累加器 (sum, count)，结果 sum / count；
//@zh-Hant KeyedAverage：每個 key 一個 AggregatingState（"average"）：累加器 (sum, count)，結果 sum / count；
//@zh 输出 (key, 目前的平均值)。
//@zh-Hant 輸出 (key, 目前的平均值)。
     */
    public static class KeyedAverage extends KeyedProcessFunction<String, Event, Event> {
        private final StateTtlConfig ttl;
        private transient AggregatingState<Long, Long> average;

        KeyedAverage(StateTtlConfig ttl) { this.ttl = ttl; }

        @Override
        public void open(OpenContext ctx) {
            AggregatingStateDescriptor<Long, Tuple2<Long, Long>, Long> d = new AggregatingStateDescriptor<>("average",
                    new AggregateFunction<Long, Tuple2<Long, Long>, Long>() {
                        public Tuple2<Long, Long> createAccumulator() { return Tuple2.of(0L, 0L); }
                        public Tuple2<Long, Long> add(Long v, Tuple2<Long, Long> a) { return Tuple2.of(a.f0 + v, a.f1 + 1); }
                        public Long getResult(Tuple2<Long, Long> a) { return a.f1 == 0 ? 0 : a.f0 / a.f1; }
                        public Tuple2<Long, Long> merge(Tuple2<Long, Long> a, Tuple2<Long, Long> b) { return Tuple2.of(a.f0 + b.f0, a.f1 + b.f1); }
                    },
                    TypeInformation.of(new TypeHint<Tuple2<Long, Long>>() {}));
            if (ttl != null) d.enableTimeToLive(ttl);
            average = getRuntimeContext().getAggregatingState(d);
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
            Lab.keyed(getRuntimeContext(), e.key, null); // placement only: with TTL a read has effects //#observe
            average.add(e.value);
            Long r = average.get();
            if (r != null) out.collect(e.withValue(r));
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
