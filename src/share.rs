//! Share links: the URL fragment holds a *run recipe* (scenario-format.md) — the
//! scenario as run, the seed, the learner's interventions with the step each was
//! made at, and the position — so that opening the link shows exactly that moment,
//! on that branch.
//!
//! Format: `#lab=1.<data>`, where `<data>` is the recipe's JSON, raw-deflated
//! (miniz_oxide) and written in URL-safe base64 without padding. The whole
//! scenario travels in the link (compressed: the odd-even-sum recipe is a few
//! hundred characters), so a link still works for an imported or edited scenario
//! and after the built-in library changes.
//!
//! Everything but [`location_recipe`] / [`set_location`] is pure and tested
//! natively; a damaged link yields an error naming what is wrong, never a panic.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use engine::{Intervention, Scenario, ScenarioError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::playback::{Action, State};

pub mod qr;

/// What starts the fragment of a share link.
pub const PREFIX: &str = "#lab=";
/// The recipe format written by this page.
pub const VERSION: u32 = 1;
/// A recipe larger than this when inflated is refused (a hostile link cannot
/// make the page allocate without bound).
const MAX_RECIPE_BYTES: usize = 4 << 20;

/// An intervention and the engine step (the cursor) it was made at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timed {
    /// The cursor's step when it was made.
    pub step: u64,
    /// What the learner did.
    pub intervention: Intervention,
}

/// Everything needed to reproduce one moment of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// The scenario document as run (a mode switch already applied).
    pub scenario: Value,
    /// The seed.
    pub seed: u64,
    /// The learner's interventions, in the order they were made.
    #[serde(default)]
    pub interventions: Vec<Timed>,
    /// The cursor's step.
    pub step: u64,
}

/// Why a share link does not open: what of the link is damaged, or which part
/// of its recipe does not fit (an invalid scenario names its field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// No `<version>.` after `#lab=`.
    NoVersion,
    /// A format version this page does not read.
    UnsupportedVersion(u32),
    /// A version that is not a number, as written.
    VersionNotANumber(String),
    /// The data is not URL-safe base64 (the decoder's message).
    NotBase64(String),
    /// The data does not inflate (the inflater's status).
    NotDeflated(String),
    /// The inflated data is not a recipe (the parser's message).
    BadRecipe(String),
    /// The recipe's scenario is not valid.
    BadScenario(ScenarioError),
    /// The recipe's scenario is valid but cannot run (the page's message).
    CannotRun(String),
    /// An intervention the run refuses (the page's message).
    Intervention {
        /// Its index in the recipe's `interventions`.
        index: usize,
        /// Why.
        message: String,
    },
    /// A step past the run's end: an intervention's (`Some(index)`) or the
    /// recipe's own position (`None`).
    BeyondEnd {
        /// The intervention's index, if it is one's step.
        index: Option<usize>,
        /// The step asked for.
        step: u64,
        /// The run's last step.
        end: u64,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NoVersion => {
                f.write_str("the link has no version (it should start with #lab=1.)")
            }
            ShareError::UnsupportedVersion(v) => write!(
                f,
                "the link's format version {v} is not supported (this page reads version {VERSION})"
            ),
            ShareError::VersionNotANumber(v) => {
                write!(f, "the link's format version {v:?} is not a number")
            }
            ShareError::NotBase64(e) => write!(
                f,
                "the link's data is damaged or cut short (not URL-safe base64: {e})"
            ),
            ShareError::NotDeflated(status) => write!(
                f,
                "the link's data is damaged or cut short (cannot be decompressed: {status})"
            ),
            ShareError::BadRecipe(e) => write!(f, "the link's recipe is not valid: {e}"),
            ShareError::BadScenario(e) => write!(f, "the link's scenario is not valid: {e}"),
            ShareError::CannotRun(e) => write!(f, "the link's scenario cannot run: {e}"),
            ShareError::Intervention { index, message } => {
                write!(f, "interventions[{index}]: {message}")
            }
            ShareError::BeyondEnd { index, step, end } => {
                match index {
                    Some(i) => write!(f, "interventions[{i}].step: ")?,
                    None => f.write_str("step: ")?,
                }
                write!(
                    f,
                    "{step} is beyond the end of the run (it ends at step {end})"
                )
            }
        }
    }
}

impl std::error::Error for ShareError {}

/// Encodes `recipe` as a URL fragment (`#lab=1.…`).
pub fn encode(recipe: &Recipe) -> String {
    let json = serde_json::to_vec(recipe).expect("a recipe always serializes");
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{PREFIX}{VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Decodes a URL fragment written by [`encode`]. `Ok(None)`: the fragment is not
/// a share link at all (so the page starts as usual). Errors say what is wrong.
pub fn decode(fragment: &str) -> Result<Option<Recipe>, ShareError> {
    let Some(rest) = fragment.strip_prefix(PREFIX) else {
        return Ok(None);
    };
    let (version, data) = rest.split_once('.').ok_or(ShareError::NoVersion)?;
    match version.parse::<u32>() {
        Ok(VERSION) => {}
        Ok(v) => return Err(ShareError::UnsupportedVersion(v)),
        Err(_) => return Err(ShareError::VersionNotANumber(version.to_string())),
    }
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| ShareError::NotBase64(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_RECIPE_BYTES)
        .map_err(|e| ShareError::NotDeflated(format!("{:?}", e.status)))?;
    let recipe: Recipe =
        serde_json::from_slice(&json).map_err(|e| ShareError::BadRecipe(e.to_string()))?;
    Ok(Some(recipe))
}

/// The recipe of the moment `state` shows, with the interventions made so far.
pub fn recipe_of(state: &State, interventions: &[Timed]) -> Option<Recipe> {
    let scenario =
        state.with_scenario(|s| serde_json::to_value(s).expect("a scenario serializes"))?;
    Some(Recipe {
        scenario,
        seed: state.seed,
        interventions: interventions.to_vec(),
        step: state.step(),
    })
}

/// Rebuilds the moment a recipe describes: the scenario, then each intervention at
/// its step, then the position. The error names the part of the recipe that does
/// not fit (an invalid scenario names its field).
pub fn restore(recipe: &Recipe) -> Result<State, ShareError> {
    let json = recipe.scenario.to_string();
    Scenario::from_json(&json).map_err(ShareError::BadScenario)?;
    let mut state = State::new(Some(&json), Some(recipe.seed));
    if let Some(e) = state.error.take() {
        return Err(ShareError::CannotRun(e));
    }
    for (i, t) in recipe.interventions.iter().enumerate() {
        state = seek(state, t.step, Some(i))?;
        state = state.apply(Action::Intervene(t.intervention.clone()));
        if let Some(message) = state.error.take() {
            return Err(ShareError::Intervention { index: i, message });
        }
    }
    seek(state, recipe.step, None)
}

/// `state` at `step`; past the run's end, an error naming the intervention
/// whose step it is (`index`), or the recipe's own.
fn seek(state: State, step: u64, index: Option<usize>) -> Result<State, ShareError> {
    let state = state.apply(Action::SeekStep(step));
    if state.step() == step {
        Ok(state)
    } else {
        Err(ShareError::BeyondEnd {
            index,
            step,
            end: state.step(),
        })
    }
}

/// The learner's interventions on the current branch, kept by the page as actions
/// are dispatched (the playback reducer does not keep them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log(Rc<RefCell<Vec<Timed>>>);

impl Log {
    /// Notes `action`, dispatched while the cursor was at `step`: an intervention
    /// discards those made later on the branch (the future is replaced); loading,
    /// restarting or switching mode starts a new run with none.
    pub fn note(&self, action: &Action, step: u64) {
        let mut log = self.0.borrow_mut();
        match action {
            Action::Intervene(i) => {
                log.retain(|t| t.step <= step);
                log.push(Timed {
                    step,
                    intervention: i.clone(),
                });
            }
            Action::LoadScenario(_)
            | Action::Load { .. }
            | Action::Restart
            | Action::SetMode(_) => log.clear(),
            _ => {}
        }
    }

    /// Replaces the log (after opening a share link or importing).
    pub fn reset(&self, to: Vec<Timed>) {
        *self.0.borrow_mut() = to;
    }

    /// The interventions so far.
    pub fn get(&self) -> Vec<Timed> {
        self.0.borrow().clone()
    }
}

/// The recipe in the address bar's fragment: `None` when there is none,
/// `Some(Err(why))` when it is damaged.
pub fn location_recipe() -> Option<Result<Recipe, ShareError>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    decode(&hash).transpose()
}

/// Removes a share link from the address bar (leaving any other fragment alone).
pub fn clear_location() {
    let is_link = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|h| h.starts_with(PREFIX));
    if is_link {
        set_location("");
    }
}

/// Puts `fragment` in the address bar without adding a history entry.
pub fn set_location(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let base = href.split('#').next().unwrap_or(&href).to_string();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{base}{fragment}")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::Mode;

    fn moment(state: &State) -> (u64, u64, String) {
        let v = state.view.as_ref().unwrap();
        (v.steps, v.now, serde_json::to_string(&**v).unwrap())
    }

    /// A learner's branch — a mode switch, a crash in the past that forks, a
    /// manual checkpoint — survives encode → decode → restore: the same world.
    #[test]
    fn a_recipe_round_trips_to_the_same_moment() {
        let log = Log::default();
        let mut s = State::new(Some("odd-even-sum"), None);
        let go = |s: State, a: Action| {
            log.note(&a, s.step());
            s.apply(a)
        };
        s = go(s, Action::SetMode(Mode::AtLeastOnce));
        s = go(s, Action::SeekTime(900));
        s = go(s, Action::SeekTime(300));
        s = go(
            s,
            Action::Intervene(Intervention::Crash {
                task: "sum#0".into(),
            }),
        );
        s = go(s, Action::SeekTime(2_000));
        s = go(s, Action::Intervene(Intervention::TriggerCheckpoint));
        s = go(s, Action::SeekTime(2_400));
        assert!(s.error.is_none(), "{:?}", s.error);
        let recipe = recipe_of(&s, &log.get()).unwrap();
        assert_eq!(recipe.interventions.len(), 2);
        let link = encode(&recipe);
        assert!(
            link.starts_with("#lab=1.") && link.len() < 2_000,
            "{} chars",
            link.len()
        );
        assert!(
            link.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"#=.-_".contains(&b)),
            "{link}"
        );
        let back = decode(&link).unwrap().unwrap();
        assert_eq!(back, recipe);
        let restored = restore(&back).unwrap();
        assert_eq!(restored.mode, Mode::AtLeastOnce);
        assert_eq!(moment(&restored), moment(&s));
    }

    /// A crash before an earlier intervention's step replaces that future.
    #[test]
    fn an_intervention_in_the_past_drops_the_later_ones() {
        let log = Log::default();
        let crash = |t: &str| Action::Intervene(Intervention::Crash { task: t.into() });
        log.note(&Action::Intervene(Intervention::TriggerCheckpoint), 50);
        log.note(&crash("sum#0"), 80);
        log.note(&crash("parity#0"), 60);
        assert_eq!(
            log.get().iter().map(|t| t.step).collect::<Vec<_>>(),
            vec![50, 60]
        );
        log.note(&Action::LoadScenario("pv-count".into()), 60);
        assert!(log.get().is_empty());
    }

    #[test]
    fn not_a_share_link_is_none() {
        assert_eq!(decode(""), Ok(None));
        assert_eq!(decode("#section"), Ok(None));
    }

    /// Each kind of damage is named.
    #[test]
    fn damaged_links_say_what_is_wrong() {
        let good = encode(&recipe_of(&State::new(Some("pv-count"), None), &[]).unwrap());
        let err = |s: &str| decode(s).unwrap_err().to_string();
        assert!(err("#lab=").contains("version"));
        assert!(err("#lab=7.abc").contains("version 7"));
        assert!(err("#lab=x.abc").contains("not a number"));
        assert!(
            err("#lab=1.a*b").contains("base64"),
            "{}",
            err("#lab=1.a*b")
        );
        assert!(err(&good[..good.len() / 2]).contains("damaged"));
        let not_json = format!(
            "#lab=1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6))
        );
        assert!(err(&not_json).contains("not valid"));
    }

    /// A recipe that decodes but does not fit: the error names the field.
    #[test]
    fn recipes_that_do_not_fit_name_the_field() {
        let s = State::new(Some("odd-even-sum"), None);
        let mut r = recipe_of(&s, &[]).unwrap();
        r.scenario["checkpointing"]["interval_ms"] = Value::from(3);
        let e = restore(&r).err().unwrap().to_string();
        assert!(e.contains("interval_ms"), "{e}");
        let mut r = recipe_of(&s, &[]).unwrap();
        r.interventions.push(Timed {
            step: 3,
            intervention: Intervention::Crash {
                task: "nope#1".into(),
            },
        });
        let e = restore(&r).err().unwrap().to_string();
        assert!(
            e.contains("interventions[0]") && e.contains("nope#1"),
            "{e}"
        );
        let mut r = recipe_of(&s, &[]).unwrap();
        r.step = 10_000_000;
        let e = restore(&r).err().unwrap().to_string();
        assert!(e.starts_with("step:"), "{e}");
    }
}
