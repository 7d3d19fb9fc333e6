//! The moment an address names: `?scenario=…&seed=…&mode=…&t=…&step=…`.
//! The page opens it when it starts (`src/app/runs.rs`), and the classroom
//! server draws its first frame before the wasm arrives (`src/first_frame.rs`),
//! so both read an address the same way.

use super::{Action, Mode, State};

/// The query parameters that name a moment; any other one (a tab, a tour step,
/// the twin view…) asks for something a still frame does not show.
pub const PARAMS: [&str; 6] = ["lang", "scenario", "seed", "mode", "t", "step"];

/// A moment named by an address. Unreadable numbers and unknown modes are
/// ignored, as the page ignores them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// The lesson (`?scenario=`); the default lesson without it.
    pub scenario: Option<String>,
    /// The run's seed.
    pub seed: Option<u64>,
    /// The checkpointing mode (`?mode=unaligned`).
    pub mode: Option<Mode>,
    /// A simulated time to seek to, in ms.
    pub t: Option<u64>,
    /// An engine step to seek to (after `t`, as the page applies them).
    pub step: Option<u64>,
}

impl Link {
    /// The link in a query string, read through `get` (a parameter's value).
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> Link {
        let number = |name: &str| get(name).and_then(|v| v.parse().ok());
        Link {
            scenario: get("scenario"),
            seed: number("seed"),
            mode: get("mode").as_deref().and_then(Mode::from_key),
            t: number("t"),
            step: number("step"),
        }
    }

    /// The run at the named moment: an unknown lesson falls back to the default
    /// one with its message in [`State::error`].
    pub fn open(&self) -> State {
        let mut state = State::new(self.scenario.as_deref(), self.seed);
        if let Some(mode) = self.mode {
            state = state.apply(Action::SetMode(mode));
        }
        if let Some(t) = self.t {
            state = state.apply(Action::SeekTime(t));
        }
        if let Some(step) = self.step {
            state = state.apply(Action::SeekStep(step));
        }
        state
    }
}

#[cfg(all(test, feature = "bundled"))]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Link {
        Link::from_query(|name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    /// A link opens its lesson at its moment; unreadable values are ignored.
    #[test]
    fn a_link_opens_its_lesson_at_its_moment() {
        let link = query(&[
            ("scenario", "savepoint-rescale"),
            ("t", "2040"),
            ("mode", "nope"),
        ]);
        assert_eq!(link.mode, None);
        let state = link.open();
        assert_eq!(state.scenario, "savepoint-rescale");
        assert_eq!(state.view.as_ref().map(|v| v.now), Some(2040));
        assert!(state.error.is_none());
        let bad = query(&[("scenario", "no-such-lesson"), ("t", "x")]);
        assert_eq!(bad.t, None);
        let state = bad.open();
        assert_eq!(state.scenario, super::super::DEFAULT_SCENARIO);
        assert!(state
            .error
            .as_deref()
            .is_some_and(|e| e.contains("no-such-lesson")));
    }
}
