//! One rule for one thing, in every text the page and its rule book show: the Kafka
//! transaction timeout is stated with one bound, and a configuration key Flink 2.3
//! deprecated appears only as what a key was "formerly" called. Pure; the tests run
//! the checks over every page string (both languages), `docs/flink-semantics.md` and
//! the engine's validation warning.

/// The bound every text states for `transaction.timeout.ms`, in English.
pub const TIMEOUT_RULE_EN: &str =
    "(tolerable failures + 1) × (interval + checkpoint timeout) + restart delay";

/// The same bound in Chinese.
pub const TIMEOUT_RULE_ZH: &str = "（可容忍失败次数 + 1）×（间隔 + 检查点超时时间）+ 重启延迟";
/// The same bound in Traditional Chinese (as `scripts/hant.cjs` converts it).
pub const TIMEOUT_RULE_ZH_HANT: &str = "（可容忍失敗次數 + 1）×（間隔 + 檢查點超時時間）+ 重啟延遲";

/// Other ways the texts once stated the bound; none may come back.
const OTHER_RULES: &[&str] = &[
    "interval plus the recovery time",
    "longest checkpoint plus the longest restart",
    "longest checkpoint plus restart",
    "checkpoint plus restart",
    "caps it at",
    "检查点间隔加恢复时间",
    "最长的检查点耗时加上最长的重启时间",
    "检查点加重启",
    "上限是 15 分钟",
];

/// Words that make a sentence about the timeout a statement of its rule.
const RULE_WORDS: &[&str] = &[
    "must",
    "at least",
    "exceed",
    "larger than",
    "longer than",
    "必须",
    "不能小于",
    "不小于",
    "大于",
    "长于",
];

/// Spaces and underscores do not change a formula: `tolerable_failures + 1` is
/// `tolerable failures + 1`.
fn squeeze(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '_' { ' ' } else { c })
        .filter(|c| *c != ' ')
        .collect::<String>()
        .to_lowercase()
}

/// What is wrong with `text` as a statement about the Kafka transaction timeout: an
/// old phrasing of the bound, or a rule stated without the one formula.
pub fn timeout_rule_problems(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out: Vec<String> = OTHER_RULES
        .iter()
        .filter(|p| lower.contains(&p.to_lowercase()))
        .map(|p| format!("states the bound as “{p}”"))
        .collect();
    let about_timeout = ["transaction.timeout.ms", "transaction timeout", "事务超时"]
        .iter()
        .any(|k| lower.contains(k));
    let states_rule = RULE_WORDS.iter().any(|w| lower.contains(w));
    let has_formula = [TIMEOUT_RULE_EN, TIMEOUT_RULE_ZH, TIMEOUT_RULE_ZH_HANT]
        .iter()
        .any(|f| squeeze(text).contains(&squeeze(f)));
    if about_timeout && states_rule && !has_formula {
        out.push(format!(
            "states a rule for the transaction timeout without the bound {TIMEOUT_RULE_EN} / {TIMEOUT_RULE_ZH}"
        ));
    }
    out
}

/// Each deprecated key (`old`, with the key that replaced it) that `text` uses
/// other than as "formerly …" / "旧名 …".
pub fn deprecated_key_problems(text: &str, deprecated: &[(String, String)]) -> Vec<String> {
    let is_key_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut out = Vec::new();
    for (old, new) in deprecated {
        for (at, _) in text.match_indices(old.as_str()) {
            let before = text[..at].chars().next_back();
            let rest = &text[at + old.len()..];
            let mut after = rest.chars();
            let continues = match after.next() {
                Some(c) if is_key_char(c) => true,
                // `state.backend.type` continues the key; `state.backend.` ends a sentence.
                Some('.') => after.next().is_some_and(is_key_char),
                _ => false,
            };
            if before.is_some_and(|c| is_key_char(c) || c == '.') || continues {
                continue;
            }
            let lead: String = text[..at]
                .chars()
                .rev()
                .take(24)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let lead = lead.to_lowercase();
            if !(lead.contains("formerly") || lead.contains("旧名") || lead.contains("舊名")) {
                out.push(format!(
                    "uses {old}, deprecated in Flink 2.3: say {new} (formerly {old})"
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of a JSON document in either language, with where it is.
    fn strings(v: &serde_json::Value, at: &str, out: &mut Vec<(String, String)>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    if k.starts_with('_') || k == "sources" {
                        continue;
                    }
                    strings(v, &format!("{at}/{k}"), out);
                }
            }
            serde_json::Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    strings(v, &format!("{at}[{i}]"), out);
                }
            }
            serde_json::Value::String(s) => out.push((at.to_string(), s.clone())),
            _ => {}
        }
    }

    /// Every text: the page's JSON files, the engine's scenarios, the rule book (by
    /// paragraph) and the validation warnings of the built-in lessons.
    fn all_texts() -> Vec<(String, String)> {
        let mut files: Vec<(String, &str)> = vec![
            ("ui.json".into(), crate::i18n::UI_JSON),
            ("flink.json".into(), crate::i18n::flink::FlinkMsg::JSON),
            ("narration.json".into(), crate::describe::NARRATION_JSON),
            ("lessons.json".into(), crate::lessons::wording::LESSONS_JSON),
            ("extras.json".into(), crate::i18n::extras::EXTRAS_JSON),
            ("drill.json".into(), crate::drill::WORDS_JSON),
            (
                "glossary.json".into(),
                crate::lessons::glossary::GLOSSARY_JSON,
            ),
            (
                "drill/questions.json".into(),
                include_str!("../../assets/drill/questions.json"),
            ),
        ];
        files.extend(
            crate::lessons::tour::TOURS
                .iter()
                .map(|(n, j)| (format!("tours/{n}.json"), *j)),
        );
        files.extend(
            engine::runner::BUILTINS
                .iter()
                .map(|(n, j)| (format!("scenarios/{n}.json"), *j)),
        );
        let mut out = Vec::new();
        for (name, json) in files {
            let v: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
            strings(&v, &name, &mut out);
        }
        for (i, para) in include_str!("../../docs/flink-semantics.md")
            .split("\n\n")
            .enumerate()
        {
            out.push((
                format!("flink-semantics.md paragraph {}", i + 1),
                para.to_string(),
            ));
        }
        for (name, json) in engine::runner::BUILTINS {
            let (_, warnings) = engine::Scenario::from_json_with_warnings(json).expect("valid");
            for w in warnings {
                out.push((format!("the validation of {name}"), w));
            }
        }
        out
    }

    fn deprecated() -> Vec<(String, String)> {
        let names = crate::lessons::sources::tests::names();
        names.deprecated.into_iter().collect()
    }

    /// Every text that states a rule for the Kafka transaction timeout states the
    /// same bound — the tours, the drill, the rule book and the validation warning
    /// alike — and none keeps an old phrasing of it.
    #[test]
    fn one_bound_for_the_kafka_transaction_timeout() {
        let texts = all_texts();
        let mut bad = Vec::new();
        let mut stating = 0;
        for (at, text) in &texts {
            let p = timeout_rule_problems(text);
            if [TIMEOUT_RULE_EN, TIMEOUT_RULE_ZH, TIMEOUT_RULE_ZH_HANT]
                .iter()
                .any(|f| squeeze(text).contains(&squeeze(f)))
            {
                stating += 1;
            }
            bad.extend(p.into_iter().map(|p| format!("{at}: {p}\n    {text}")));
        }
        assert!(
            bad.is_empty(),
            "{} problem(s):\n{}",
            bad.len(),
            bad.join("\n")
        );
        // The tours, the drill, the rule book and the warning all state it.
        for place in [
            "tours/",
            "drill/questions.json",
            "flink-semantics.md",
            "the validation of",
        ] {
            assert!(
                texts.iter().any(|(at, t)| at.starts_with(place)
                    && squeeze(t).contains(&squeeze(TIMEOUT_RULE_EN))),
                "{place}: no text states the bound"
            );
        }
        assert!(stating >= 8, "only {stating} texts state the bound");
    }

    #[test]
    fn the_timeout_check_finds_a_second_rule() {
        for bad in [
            "the Kafka transaction timeout must exceed the interval plus the recovery time",
            "transaction.timeout.ms must exceed the longest checkpoint plus the longest restart",
            "transaction.timeout.ms must be larger than the checkpoint interval",
            "Kafka 事务超时要大于检查点间隔加恢复时间",
        ] {
            assert!(!timeout_rule_problems(bad).is_empty(), "{bad}");
        }
        assert!(timeout_rule_problems(&format!(
            "transaction.timeout.ms must be at least {}",
            TIMEOUT_RULE_EN.replace("tolerable failures", "tolerable_failures")
        ))
        .is_empty());
        assert!(timeout_rule_problems("with transaction.timeout.ms at 800 ms").is_empty());
    }

    /// Every text names configuration keys by their Flink 2.3 names; a key 2.3
    /// deprecated appears only as "formerly …" / "旧名 …".
    #[test]
    fn deprecated_keys_appear_only_as_former_names() {
        let deprecated = deprecated();
        assert!(deprecated.iter().any(|(o, _)| o == "state.checkpoints.dir"));
        let mut bad = Vec::new();
        for (at, text) in all_texts() {
            for p in deprecated_key_problems(&text, &deprecated) {
                bad.push(format!("{at}: {p}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{} problem(s):\n{}",
            bad.len(),
            bad.join("\n")
        );
    }

    #[test]
    fn the_names_check_finds_a_deprecated_key() {
        let d = deprecated();
        assert_eq!(
            deprecated_key_problems("Storage: state.checkpoints.dir.", &d).len(),
            1
        );
        assert_eq!(
            deprecated_key_problems("set restart-strategy: fixed-delay", &d).len(),
            1
        );
        assert_eq!(
            deprecated_key_problems("state.savepoints.dir 设默认保存点目录", &d).len(),
            1
        );
        for fine in [
            "execution.checkpointing.dir (formerly state.checkpoints.dir)",
            "execution.checkpointing.savepoint-dir（旧名 state.savepoints.dir）",
            "state.backend.type: forst",
            "restart-strategy.type",
        ] {
            assert!(deprecated_key_problems(fine, &d).is_empty(), "{fine}");
        }
    }
}
