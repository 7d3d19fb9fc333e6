//! Fragment: `broadcast_filter`: rules in broadcast state.
    /**
//@en The broadcast state's descriptor: rule name → bound.
//@zh 广播状态的描述符：规则名 → 边界值。
//@zh-Hant 廣播狀態的描述符：規則名 → 邊界值。
     */
    static final MapStateDescriptor<String, Long> RULES =
            new MapStateDescriptor<>("rules", Types.STRING, Types.LONG);

    /**
//@en RulesFilter: the "dynamic configuration" pattern. Rule records (key "min" or "max") arrive on the
//@en broadcast input and go into broadcast state on every subtask; a main record passes when its value
//@en is within every bound set. Every subtask checkpoints its own copy of the rules.
//@zh RulesFilter：“动态配置”模式。规则记录（key 为 "min" 或 "max"）从广播输入到达，写入每个
//@zh-Hant RulesFilter：「動態配置」模式。規則記錄（key 為 "min" 或 "max"）從廣播輸入到達，寫入每個
//@zh 子任务的广播状态；主数据流的记录只有在所有已设置的边界之内才放行。每个子任务的检查点
//@zh-Hant 子任務的廣播狀態；主資料流的記錄只有在所有已設定的邊界之內才放行。每個子任務的檢查點
//@zh 都保存自己的一份规则。
//@zh-Hant 都儲存自己的一份規則。
     */
    public static class RulesFilter extends BroadcastProcessFunction<Event, Event, Event> {
        @Override
        public void processElement(Event e, ReadOnlyContext ctx, Collector<Event> out) throws Exception {
            ReadOnlyBroadcastState<String, Long> rules = ctx.getBroadcastState(RULES);
            Lab.rules(getRuntimeContext(), copy(rules.immutableEntries())); //#observe
            Long min = rules.get("min"), max = rules.get("max");
            if ((min == null || e.value >= min) && (max == null || e.value <= max)) out.collect(e);
            Lab.processed(getRuntimeContext(), e); //#script
        }

        @Override
        public void processBroadcastElement(Event rule, Context ctx, Collector<Event> out) throws Exception {
            if (rule.key == null) throw new IllegalArgumentException("a rule without a key (its name) reached the broadcast state");
            ctx.getBroadcastState(RULES).put(rule.key, rule.value);
            Lab.processed(getRuntimeContext(), rule); //#script
        }

        static Map<String, Long> copy(Iterable<Map.Entry<String, Long>> entries) { //#observe
            Map<String, Long> m = new TreeMap<>(); //#observe
            for (Map.Entry<String, Long> en : entries) m.put(en.getKey(), en.getValue()); //#observe
            return m; //#observe
        } //#observe
    }
