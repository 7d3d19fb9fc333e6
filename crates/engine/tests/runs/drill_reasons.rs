//! The reasons the drill gives beside a wrong answer: every blank of the kinds
//! listed here carries one, and every reason, question, parameter and blank any
//! kind makes is worded in both languages with exactly the values it names
//! (`assets/i18n/drill.json`), at a moment inside the variant's run. And no
//! exercise kind serves more than two of the questions.

use std::collections::BTreeSet;
use std::path::PathBuf;

use engine::drill::{self, Exercise, Kind};
use engine::runner;

/// The kinds whose every blank must carry a reason.
const EXPLAINED: [Kind; 12] = [
    Kind::StoredOffset,
    Kind::RestoredSums,
    Kind::AlignmentWaiting,
    Kind::AtLeastOnceDuplicates,
    Kind::CommittedTransactions,
    Kind::RestartsBeforeFailure,
    Kind::RestartDelays,
    Kind::UnalignedPersisted,
    Kind::ReadCommittedAfterCrash,
    Kind::TxnTimeout,
    Kind::LastAck,
    Kind::CheckpointPhases,
];

const VARIANTS: u64 = 20;

fn wording() -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/i18n/drill.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).expect("drill.json parses")
}

/// The `{placeholders}` of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    text.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

/// The placeholders of `key`'s wording, the same in both languages.
fn worded(words: &serde_json::Value, key: &str) -> BTreeSet<String> {
    let text = |lang: &str| {
        words[key][lang]
            .as_str()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| panic!("drill.json: {key} has no {lang} wording"))
            .to_string()
    };
    let (zh, en) = (placeholders(&text("zh")), placeholders(&text("en")));
    assert_eq!(zh, en, "drill.json: {key} names other values in zh and en");
    zh
}

fn exercise(kind: Kind, v: u64) -> Exercise {
    let base = runner::load(kind.lesson()).expect("built-in");
    drill::generate(kind, &base, v).unwrap_or_else(|e| panic!("{} variant {v}: {e}", kind.key()))
}

#[test]
fn every_reason_question_and_blank_is_worded_with_the_values_it_names() {
    let words = wording();
    for kind in Kind::ALL {
        for v in 0..VARIANTS {
            let ex = exercise(kind, v);
            let end = ex.scenario.until_ms.unwrap_or(runner::DEFAULT_LIMIT_MS);
            // A question names its own values, the variant's parameters and the lesson.
            let known: BTreeSet<String> = ex
                .question
                .keys()
                .chain(ex.params.keys())
                .cloned()
                .chain(["lesson".to_string()])
                .collect();
            // The page names the variant's parameters: `p_<name>` with `{v}`.
            for name in ex.params.keys() {
                let v: BTreeSet<String> = ["v".to_string()].into();
                assert_eq!(worded(&words, &format!("p_{name}")), v, "p_{name}");
            }
            let asked = worded(&words, &format!("q_{}", kind.key()));
            assert!(
                asked.is_subset(&known),
                "{} variant {v}: the question names {:?}, not given",
                kind.key(),
                asked.difference(&known).collect::<Vec<_>>()
            );
            for b in &ex.blanks {
                worded(&words, &format!("b_{}", b.name));
                let scenario = serde_json::to_string(&ex.scenario).unwrap();
                for label in &b.labels {
                    // A label the stage shows (`src#1`, `chk-3`, `window.contents`,
                    // an operator's uid) needs no wording; any other is a wording
                    // key the page words as `label.<key>`.
                    let shown = label.contains(['#', '-', '.'])
                        || scenario.contains(&format!("\"uid\":\"{label}\""));
                    if !shown {
                        worded(&words, &format!("label.{label}"));
                    }
                }
                let Some(why) = &b.why else {
                    assert!(
                        !EXPLAINED.contains(&kind),
                        "{} variant {v}: {} has no reason",
                        kind.key(),
                        b.name
                    );
                    continue;
                };
                let named: BTreeSet<String> = why.args.keys().cloned().collect();
                assert_eq!(
                    worded(&words, &format!("why.{}", why.key)),
                    named,
                    "{} variant {v}: why.{} names other values than it is given",
                    kind.key(),
                    why.key
                );
                assert!(
                    why.at_ms <= end,
                    "{} variant {v}: the reason's moment {} ms is past the run's end",
                    kind.key(),
                    why.at_ms
                );
            }
        }
    }
}

/// The questions' exercise kinds, by question id, from the drill's data file.
fn question_kinds() -> Vec<(String, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/drill/questions.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("questions.json parses");
    doc["questions"]
        .as_array()
        .expect("questions.json: questions")
        .iter()
        .map(|q| {
            let id = q["id"].as_str().expect("a question's id").to_string();
            let kinds = q["exercises"]
                .as_array()
                .unwrap_or_else(|| panic!("{id}: exercises"))
                .iter()
                .map(|k| k.as_str().expect("a kind's key").to_string())
                .collect();
            (id, kinds)
        })
        .collect()
}

#[test]
fn at_most_two_questions_share_a_kind() {
    let mut by_kind: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (id, kinds) in question_kinds() {
        for k in kinds {
            assert!(Kind::from_key(&k).is_some(), "{id}: unknown kind {k}");
            by_kind.entry(k).or_default().push(id.clone());
        }
    }
    let shared: Vec<String> = by_kind
        .iter()
        .filter(|(_, ids)| ids.len() > 2)
        .map(|(k, ids)| format!("{k}: {}", ids.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "kinds asked by more than two questions: {shared:?}"
    );
}
