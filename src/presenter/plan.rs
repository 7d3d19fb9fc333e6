//! Class plans: an ordered list of lessons, each with the tour steps to show
//! and a time budget. Three ready-made plans come with the page
//! (`assets/presenter/plans.json`, a wording file the page fetches); the
//! lecturer's own is made in the presenter window, kept in local storage, and
//! travels as a JSON file or a link (`?plan=`, [`encode_link`]).
//!
//! Pure: parsing, checking (the error names the field), the link's encoding
//! and where a class stands against the plan's time.

use std::collections::BTreeMap;

use engine::scenario::Localized;
use serde::{Deserialize, Serialize};

use crate::i18n::{Book, WordingError};

/// The ready-made plans' file, compiled in for native code and the tests.
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const PLANS_JSON: &str = include_str!("../../assets/presenter/plans.json");

/// `plans.json`'s plans, in file order.
pub static PLANS: Book<Vec<ReadyPlan>> = Book::new(
    "i18n/plans.json",
    crate::i18n::compiled_in!(PLANS_JSON),
    ready_plans,
);

/// The longest a lesson of a plan may take, in minutes.
pub const MAX_MINUTES: u32 = 180;
/// The most lessons a plan may hold.
pub const MAX_ITEMS: usize = 40;

/// One lesson of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// The built-in lesson.
    pub lesson: String,
    /// Its time budget, in minutes.
    pub minutes: u32,
    /// The tour steps to show (1-based, as the tour card counts), all when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<usize>,
}

/// Why a plan (a file, a link, or one made in the page) does not fit: the
/// message names the field (`items[2].minutes`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError(pub String);

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlanError {}

/// A plan: its lessons in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// The plan's name (the lecturer's own words, any language).
    #[serde(default)]
    pub title: String,
    /// Its lessons, in order.
    pub items: Vec<Item>,
}

/// A ready-made plan of `plans.json`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadyPlan {
    /// A stable name (`intro-45`).
    pub id: String,
    /// Its title in every language.
    pub title: Localized,
    /// Its lessons.
    pub items: Vec<Item>,
}

impl Plan {
    /// The whole budget, in minutes.
    pub fn minutes(&self) -> u32 {
        self.items.iter().map(|i| i.minutes).sum()
    }

    /// The budget of the lessons before `index`, in minutes.
    pub fn minutes_before(&self, index: usize) -> u32 {
        self.items.iter().take(index).map(|i| i.minutes).sum()
    }

    /// Checks every item; the error names the field (`items[2].minutes`).
    pub fn check(&self) -> Result<(), PlanError> {
        self.check_items().map_err(PlanError)
    }

    fn check_items(&self) -> Result<(), String> {
        if self.items.is_empty() {
            return Err("items: a plan needs at least one lesson".into());
        }
        if self.items.len() > MAX_ITEMS {
            return Err(format!(
                "items: {} lessons, at most {MAX_ITEMS}",
                self.items.len()
            ));
        }
        for (i, item) in self.items.iter().enumerate() {
            if !engine::runner::NAMES.contains(&item.lesson.as_str()) {
                return Err(format!(
                    "items[{i}].lesson: {:?} is not a built-in lesson",
                    item.lesson
                ));
            }
            if item.minutes == 0 || item.minutes > MAX_MINUTES {
                return Err(format!(
                    "items[{i}].minutes: {} is not between 1 and {MAX_MINUTES}",
                    item.minutes
                ));
            }
            let tour_len = crate::lessons::tour::tour_for(&item.lesson).map(|t| t.steps.len());
            for (j, &s) in item.steps.iter().enumerate() {
                let beyond = tour_len.is_some_and(|n| s > n);
                if s == 0 || beyond {
                    return Err(format!(
                        "items[{i}].steps[{j}]: step {s} is not a step of {}'s tour{}",
                        item.lesson,
                        tour_len.map_or(String::new(), |n| format!(" (1 to {n})"))
                    ));
                }
            }
        }
        Ok(())
    }

    /// Reads a plan file (the JSON [`Plan::to_json`] writes); the error names
    /// the field.
    pub fn parse(json: &str) -> Result<Plan, PlanError> {
        let plan: Plan =
            serde_json::from_str(json).map_err(|e| PlanError(format!("the plan file: {e}")))?;
        plan.check()
            .map_err(|e| PlanError(format!("the plan file: {e}")))?;
        Ok(plan)
    }

    /// The plan as a file.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan serializes")
    }
}

/// The plan as a link's `plan=` value: `lesson.minutes[.steps]` per lesson,
/// joined by `~`, steps joined by `-` (lesson names are lower case, digits and
/// dashes, so nothing needs escaping): `pv-count.5~barrier-alignment.8.1-2-4`.
/// The title is left out; a link is short enough to read aloud.
pub fn encode_link(plan: &Plan) -> String {
    plan.items
        .iter()
        .map(|i| {
            let mut s = format!("{}.{}", i.lesson, i.minutes);
            if !i.steps.is_empty() {
                let steps: Vec<String> = i.steps.iter().map(|s| s.to_string()).collect();
                s.push('.');
                s.push_str(&steps.join("-"));
            }
            s
        })
        .collect::<Vec<_>>()
        .join("~")
}

/// Reads a `plan=` value written by [`encode_link`]; the error names the item
/// and the field.
pub fn decode_link(value: &str) -> Result<Plan, PlanError> {
    decode_link_items(value).map_err(PlanError)
}

fn decode_link_items(value: &str) -> Result<Plan, String> {
    let mut items = Vec::new();
    for (i, part) in value.split('~').enumerate() {
        let mut fields = part.split('.');
        let lesson = fields.next().unwrap_or_default().to_string();
        let minutes = fields.next().ok_or_else(|| {
            format!("the plan link: items[{i}].minutes: missing (write {lesson}.<minutes>)")
        })?;
        let minutes = minutes.parse::<u32>().map_err(|_| {
            format!("the plan link: items[{i}].minutes: {minutes:?} is not a number")
        })?;
        let steps = match fields.next() {
            None | Some("") => Vec::new(),
            Some(list) => list
                .split('-')
                .enumerate()
                .map(|(j, s)| {
                    s.parse::<usize>().map_err(|_| {
                        format!("the plan link: items[{i}].steps[{j}]: {s:?} is not a number")
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        if fields.next().is_some() {
            return Err(format!(
                "the plan link: items[{i}]: more than lesson.minutes.steps"
            ));
        }
        items.push(Item {
            lesson,
            minutes,
            steps,
        });
    }
    let plan = Plan {
        title: String::new(),
        items,
    };
    plan.check().map_err(|e| format!("the plan link: {e}"))?;
    Ok(plan)
}

/// Where a class stands: which lesson, and the time against the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Minutes ahead of the plan (negative: behind), at the start of the
    /// current lesson's budget plus its time so far.
    pub ahead_min: i64,
    /// Minutes of the whole plan left by the budget.
    pub left_min: i64,
}

/// How a class `elapsed_ms` into the lecture, at lesson `index`, stands: ahead
/// when fewer minutes have passed than the budget of the lessons up to and
/// including the current one.
pub fn standing(plan: &Plan, index: usize, elapsed_ms: f64) -> Standing {
    let elapsed_min = (elapsed_ms / 60_000.0).floor() as i64;
    let due_by_end_of_this = i64::from(plan.minutes_before(index + 1));
    Standing {
        ahead_min: due_by_end_of_this - elapsed_min,
        left_min: i64::from(plan.minutes()) - elapsed_min,
    }
}

/// The ready-made plans, each checked; the error names the plan and the field.
fn ready_plans(json: &str) -> Result<Vec<ReadyPlan>, WordingError> {
    const FILE: &str = "plans.json";
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(rename = "_readme", default)]
        _readme: Option<String>,
        plans: Vec<ReadyPlan>,
    }
    let file: File = serde_json::from_str(json).map_err(|e| WordingError::json(FILE, &e))?;
    let mut ids = BTreeMap::new();
    for (i, p) in file.plans.iter().enumerate() {
        let plan = Plan {
            title: p.id.clone(),
            items: p.items.clone(),
        };
        plan.check()
            .map_err(|e| WordingError::entry(FILE, format!("plans[{i}].{e}"), "does not fit"))?;
        if ids.insert(p.id.clone(), i).is_some() {
            return Err(WordingError::entry(
                FILE,
                format!("plans[{i}].id"),
                format!("{:?} is used twice", p.id),
            ));
        }
    }
    Ok(file.plans)
}

impl ReadyPlan {
    /// The plan itself, titled in `lang`.
    pub fn plan(&self, lang: crate::i18n::Lang) -> Plan {
        Plan {
            title: lang.loc(&self.title).to_string(),
            items: self.items.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            title: "mine".into(),
            items: vec![
                Item {
                    lesson: "pv-count".into(),
                    minutes: 5,
                    steps: vec![],
                },
                Item {
                    lesson: "barrier-alignment".into(),
                    minutes: 8,
                    steps: vec![1, 2, 4],
                },
            ],
        }
    }

    #[test]
    fn the_ready_made_plans_fit_their_budgets() {
        let plans = ready_plans(PLANS_JSON).unwrap_or_else(|e| panic!("{e}"));
        let by_id: BTreeMap<_, _> = plans.iter().map(|p| (p.id.as_str(), p)).collect();
        for (id, minutes) in [
            ("intro-45", 45),
            ("deep-dive-90", 90),
            ("interview-evening", 120),
        ] {
            let p = by_id.get(id).unwrap_or_else(|| panic!("no plan {id}"));
            assert_eq!(p.plan(crate::i18n::Lang::En).minutes(), minutes, "{id}");
        }
    }

    #[test]
    fn a_plan_round_trips_as_a_file_and_as_a_link() {
        let p = plan();
        assert_eq!(Plan::parse(&p.to_json()), Ok(p.clone()));
        let link = encode_link(&p);
        assert_eq!(link, "pv-count.5~barrier-alignment.8.1-2-4");
        let back = decode_link(&link).unwrap();
        assert_eq!(back.items, p.items);
    }

    #[test]
    fn a_bad_plan_names_the_field() {
        let mut p = plan();
        p.items[1].lesson = "nope".into();
        let e = Plan::parse(&p.to_json()).unwrap_err().0;
        assert!(e.contains("items[1].lesson") && e.contains("nope"), "{e}");
        let mut p = plan();
        p.items[0].minutes = 0;
        assert!(p.check().unwrap_err().0.starts_with("items[0].minutes"));
        let mut p = plan();
        p.items[1].steps = vec![1, 99];
        let e = p.check().unwrap_err().0;
        assert!(
            e.starts_with("items[1].steps[1]") && e.contains("1 to"),
            "{e}"
        );
        let e = Plan::parse(r#"{"items": [{"lesson": "pv-count"}]}"#)
            .unwrap_err()
            .0;
        assert!(e.contains("minutes"), "{e}");
        let e = Plan::parse(r#"{"items": []}"#).unwrap_err().0;
        assert!(e.contains("items"), "{e}");
        let e = decode_link("pv-count.5~barrier-alignment").unwrap_err().0;
        assert!(e.contains("items[1].minutes"), "{e}");
        let e = decode_link("pv-count.x").unwrap_err().0;
        assert!(e.contains("items[0].minutes") && e.contains("\"x\""), "{e}");
        let e = decode_link("pv-count.5.1-z").unwrap_err().0;
        assert!(e.contains("items[0].steps[1]"), "{e}");
        let e = decode_link("pv-count.5.1.2").unwrap_err().0;
        assert!(e.contains("items[0]"), "{e}");
    }

    #[test]
    fn the_standing_counts_the_budget_up_to_the_current_lesson() {
        let p = plan();
        // 3 minutes into pv-count (budget 5): 2 ahead, 10 of the 13 left.
        assert_eq!(
            standing(&p, 0, 3.0 * 60_000.0),
            Standing {
                ahead_min: 2,
                left_min: 10
            }
        );
        // 15 minutes in, still in the second lesson (due by 13): 2 behind.
        assert_eq!(standing(&p, 1, 15.0 * 60_000.0).ahead_min, -2);
    }
}
