//! Fragment: `map` with `fn`. The exporter replaces NAME, and BODY with the function's expression.
    /** map: NAME. */
    public static class NAME extends RichMapFunction<Event, Event> {
        @Override
        public Event map(Event e) throws Exception {
            Event out = BODY;
            Lab.processed(getRuntimeContext(), e); //#script
            return out;
        }
    }
