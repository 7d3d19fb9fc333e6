//! Answering an exercise on the graph: while an exercise asks which records
//! (say, the ones waiting in a blocked channel), the stage showing its variant
//! turns every record it draws into a button, and a tap toggles that record's
//! value in the exercise's answer — the same answer its chips edit.
//!
//! The exercise card arms the pick and the stage reads it through a context
//! (the two sit in different branches of the page), so the stage needs to know
//! nothing about exercises.

use std::collections::BTreeSet;
use std::rc::Rc;

use yew::prelude::*;

/// An armed pick: which run it applies to, what is chosen, and where a tap goes.
#[derive(Clone, Debug, PartialEq)]
pub struct StagePick {
    /// The exercise that armed it (its kind's key): only that card disarms it.
    pub owner: &'static str,
    /// The scenario the stage must be showing (the exercise's variant): after
    /// the class moves to another lesson the graph's records are not choices.
    pub scenario: String,
    /// The values a record may have to be a choice (others are not buttons,
    /// as they are not chips).
    pub choices: Rc<Vec<i64>>,
    /// The values chosen so far (drawn pressed on the stage).
    pub chosen: Rc<BTreeSet<i64>>,
    /// Told the value of a record tapped on the stage.
    pub on_pick: Callback<i64>,
}

/// The page-wide slot for the armed pick (provided by the page, read by the
/// stage, set by an exercise card).
pub type PickSlot = UseStateHandle<Option<StagePick>>;

impl StagePick {
    /// The pick if it applies to a stage showing `scenario`.
    pub fn for_stage<'a>(slot: &'a Option<StagePick>, scenario: &str) -> Option<&'a StagePick> {
        slot.as_ref().filter(|p| p.scenario == scenario)
    }
}

#[cfg(test)]
mod tests {
    use engine::drill::{self, Answer, Kind};
    use engine::World;

    use crate::scene::{self, Fit, Orientation, TokenKind};

    /// An exercise answered on the graph shows every record of its answer at
    /// the moment it asks, on a projector's stage and a phone's, for every
    /// variant drawn — otherwise a learner could not tap the right answer.
    #[test]
    fn the_records_to_tap_are_on_the_stage_when_asked() {
        let kind = Kind::AlignmentWaiting;
        let base = engine::runner::load(kind.lesson()).unwrap();
        for variant in 0..120 {
            let ex = drill::generate(kind, &base, variant).unwrap();
            let at = ex.ask_ms.expect("answered on the graph");
            let blank = ex.blanks.iter().find(|b| !b.choices.is_empty()).unwrap();
            let Answer::Set(answer) = &blank.answer else {
                panic!("a set")
            };
            let mut w = World::new(&ex.scenario, ex.scenario.seed).unwrap();
            w.run_until(at, |_| {});
            let (job, view) = (w.job_view(), w.view());
            for orientation in [Orientation::Across, Orientation::Down] {
                let fit = Fit {
                    orientation,
                    ..Fit::default()
                };
                let s = scene::scene_fit(&job, &view, at as f64, fit);
                let drawn: std::collections::BTreeSet<i64> = s
                    .tokens
                    .iter()
                    .filter_map(|t| match t.kind {
                        TokenKind::Record { value, .. } if blank.choices.contains(&value) => {
                            Some(value)
                        }
                        _ => None,
                    })
                    .collect();
                assert!(
                    answer.is_subset(&drawn),
                    "variant {variant} at {at} ms ({orientation:?}): answer {answer:?}, drawn {drawn:?}"
                );
            }
        }
    }
}
