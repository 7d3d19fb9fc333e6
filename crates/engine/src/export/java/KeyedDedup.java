//! Fragment: `keyed_dedup`: a MapState per key.
    /**
//@en KeyedDedup: a MapState<Long, Long> per key ("seen": value → when first seen); a value already
//@en seen for its key is dropped, a new one remembered and forwarded (with TTL, forgotten after it).
//@zh KeyedDedup：每个 key 一个 MapState<Long, Long>（"seen"：值 → 首次出现的时间）；该 key
//@zh-Hant KeyedDedup：每個 key 一個 MapState<Long, Long>（"seen"：值 → 首次出現的時間）；該 key
//@zh 已出现过的值被丢弃，新值记下并向下游发出（有 TTL 时，过期后被遗忘）。
//@zh-Hant 已出現過的值被丟棄，新值記下並向下遊發出（有 TTL 時，過期後被遺忘）。
     */
    public static class KeyedDedup extends KeyedProcessFunction<String, Event, Event> {
        private final StateTtlConfig ttl;
        private transient MapState<Long, Long> seen;

        KeyedDedup(StateTtlConfig ttl) { this.ttl = ttl; }

        @Override
        public void open(OpenContext ctx) {
            MapStateDescriptor<Long, Long> d = new MapStateDescriptor<>("seen", Types.LONG, Types.LONG);
            if (ttl != null) d.enableTimeToLive(ttl);
            seen = getRuntimeContext().getMapState(d);
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) throws Exception {
            Lab.keyed(getRuntimeContext(), e.key, null); //#observe
            if (!seen.contains(e.value)) {
                seen.put(e.value, Lab.now());
                out.collect(e);
            }
            Lab.processed(getRuntimeContext(), e); //#script
        }
    }
