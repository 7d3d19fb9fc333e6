//! Fragment: `map` with `fn`. The exporter replaces NAME, and BODY with the function's expression.
    /**
//@en map: NAME.
//@zh map 函数：NAME。
//@zh-Hant map 函式：NAME。
     */
    public static class NAME extends RichMapFunction<Event, Event> {
        @Override
        public Event map(Event e) throws Exception {
            Event out = BODY;
            Lab.processed(getRuntimeContext(), e); //#script
            return out;
        }
    }
