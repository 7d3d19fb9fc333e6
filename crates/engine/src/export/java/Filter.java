//! Fragment: `filter` with `fn`. The exporter replaces NAME, and BODY with the predicate.
    /**
//@en filter: NAME.
//@zh filter 函数：NAME。
//@zh-Hant filter 函式：NAME。
     */
    public static class NAME extends RichFilterFunction<Event> {
        @Override
        public boolean filter(Event e) throws Exception {
            boolean keep = BODY;
            Lab.processed(getRuntimeContext(), e); //#script
            return keep;
        }
    }
