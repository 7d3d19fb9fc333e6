//! The exporter's words: every comment and note it writes into the Java file, in
//! each language, from one data file, `export.json` (the format of the page's
//! wording files: a key, then its text in `zh`, `zh-Hant` and `en`; `zh-Hant` is
//! generated from `zh` by `scripts/hant.cjs` and checked by its `--check`).
//! Texts with values in them name each value in braces (`{task}`), and every
//! language must name the same ones.
//!
//! The file is compiled in with the `builtins` feature (`lab`, the tests); the
//! page's wasm is built without it and fetches the file when its Flink code tab
//! first opens, then hands it over with [`provide`], so the wording is not code
//! the first screen downloads.
//!
//! Flink has no counterpart: this is the lab's own explanation of the mapping.

use super::script::{CrashPoint, HoldPoint, IgnoredBecause};
use super::Lang;
use crate::cause::IgnoreCause;
use crate::status::JobStatus;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt;

/// The wording file's name, as the page's data manifest lists it.
pub const FILE: &str = "i18n/export.json";

/// Declares the wording's keys once: the plain texts as fields of [`Wording`], and
/// the texts with values as fields holding the template with the names of their
/// values, which every language must use exactly.
macro_rules! wording {
    (
        texts { $($(#[doc = $doc:literal])* $key:ident,)* }
        templates { $($(#[doc = $tdoc:literal])* $tkey:ident: [$($value:literal),*],)* }
    ) => {
        /// The exporter's words in one language.
        pub(super) struct Wording {
            $($(#[doc = $doc])* pub $key: &'static str,)*
            $($(#[doc = $tdoc])* $tkey: &'static str,)*
        }

        /// Every key with the names of the values its text fills in.
        const KEYS: &[(&str, &[&str])] = &[
            $((stringify!($key), &[]),)*
            $((stringify!($tkey), &[$($value),*]),)*
        ];

        impl Wording {
            /// The wording from each key's text, in the order of [`KEYS`].
            fn from_texts(texts: [&'static str; KEYS.len()]) -> Wording {
                let [$($key,)* $($tkey,)*] = texts;
                Wording { $($key,)* $($tkey,)* }
            }
        }
    };
}

wording! {
    texts {
        /// Above the constants of the lab's run.
        run_decisions,
        /// After `TIME_SCALE`.
        time_scale_unit,
        /// Above `run(String[], MiniCluster)`.
        test_harness_entry,
        /// Names a job that runs before the lesson's own (its snapshot is restored).
        earlier_job,
        /// Approximation: how sources emit.
        approx_sources,
        /// Approximation: channel latency and capacity.
        approx_channels,
        /// Approximation: operator chaining.
        approx_chaining,
        /// Approximation: `process_ms`.
        approx_process_ms,
        /// Approximation: `async_ms`.
        approx_async_ms,
        /// Approximation: `max_state_bytes`.
        approx_max_state_bytes,
        /// Approximation: a `null` interval.
        approx_manual_interval,
        /// Approximation: a sink's `transaction_timeout_ms`.
        approx_transaction_timeout,
        /// The file's first line, after the lesson's name and title.
        lesson_export_title,
        /// How to compile and run the file.
        needs_flink_jars,
        /// After the `scripts/flink.sh` command.
        in_checkpoint_lab,
        /// Where the job runs and what it prints.
        runs_on_minicluster,
        /// Above the list of approximations.
        approximations_heading,
        /// Names the lesson's own job.
        this_job,
        /// After `disableOperatorChaining()`.
        chaining_off,
        /// After `setBufferTimeout(0)`.
        buffer_timeout_zero,
        /// After `setMaxParallelism`.
        key_group_count,
        /// When the job sets no max parallelism.
        max_parallelism_derived,
        /// Above the savepoint path of a restored job.
        restore_from_snapshot,
        /// The same restore by hand: taking a savepoint, `flink run -s … -claimMode … -n`.
        restore_by_hand,
        /// Who owns the restored snapshot: the claim modes.
        restore_claim_mode,
        /// Above `SAVEPOINT_IGNORE_UNCLAIMED_STATE` when it is set.
        allow_non_restored_state,
        /// Before the lab's reason for refusing a restore.
        lab_refuses_restore,
        /// The hashmap state backend.
        backend_hashmap,
        /// The rocksdb state backend.
        backend_rocksdb,
        /// Filesystem checkpoint storage.
        storage_filesystem,
        /// JobManager checkpoint storage.
        storage_jobmanager,
        /// No restart strategy, checkpointing on.
        restart_default_exponential,
        /// No restart strategy, checkpointing off.
        restart_default_none,
        /// The `none` restart strategy.
        restart_none,
        /// The fixed-delay restart strategy (before its 1.x spelling).
        restart_fixed_delay,
        /// The failure-rate restart strategy (before its 1.x spelling).
        restart_failure_rate,
        /// The exponential-delay restart strategy.
        restart_exponential_delay,
        /// A scenario without `checkpointing`.
        checkpointing_off,
        /// Above the checkpoint configuration.
        checkpointing_heading,
        /// A `null` interval.
        interval_null_one_day,
        /// Above the job graph.
        job_graph,
        /// After the JobManager storage's size limit.
        bytes_per_state,
        /// Approximation: TTL background cleanup on RocksDB.
        approx_ttl_rocksdb_background,
        /// Approximation: TTL background cleanup disabled.
        approx_ttl_background_disabled,
        /// Approximation: TTL incremental cleanup on RocksDB.
        approx_ttl_rocksdb_incremental,
        /// Above `lab.execute`.
        run_script,
        /// A step ignored while the job restarts.
        job_restarting,
        /// A step ignored after the job failed.
        job_failed,
        /// A step ignored after the job finished.
        job_finished,
        /// A step ignored after the job was canceled.
        job_canceled,
        /// A step ignored while the job runs (not expected; named for completeness).
        job_running,
        /// A crash for which the lab's run shows no failure.
        ignored_no_failure,
    }
    templates {
        /// Approximation: the time scale.
        approx_time_scale: ["scale"],
        /// Approximation: a scripted crash after the task's last record.
        approx_crash_after: ["task", "at_ms", "attempt", "source", "partition", "offset"],
        /// Approximation: a scripted crash of a task that handled no record.
        approx_crash_first: ["task", "at_ms", "attempt"],
        /// Approximation: a savepoint taken where the sources hold.
        approx_held_savepoint: ["action", "at_ms", "checkpoint"],
        /// Approximation: a checkpoint trigger or cancel at a lab time.
        approx_timed: ["action", "at_ms"],
        /// Approximation: a savepoint the lab did not complete, at its lab time.
        approx_unheld_savepoint: ["action", "at_ms"],
        /// Approximation: a script step left out, and why.
        approx_ignored: ["action", "at_ms", "reason"],
        /// Why: the job had ended (a `job_…` text) at a time.
        ignored_ended: ["status", "end_ms"],
    }
}

/// `template` with each `{name}` replaced by its value, in one pass (a value is
/// never read as a template). Braces around anything else stay as they are.
fn fill(template: &str, values: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .split_once('}')
            .and_then(|(name, _)| values.iter().find(|(n, _)| *n == name));
        match value {
            Some((name, value)) => {
                out.push_str(&value.to_string());
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl Wording {
    /// Approximation: the time scale.
    pub fn approx_time_scale(&self, scale: f64) -> String {
        fill(self.approx_time_scale, &[("scale", &scale)])
    }

    /// Approximation: where a scripted crash is thrown.
    pub fn approx_crash(&self, cr: &CrashPoint) -> String {
        let common: [(&str, &dyn fmt::Display); 3] = [
            ("task", &cr.task),
            ("at_ms", &cr.at_ms),
            ("attempt", &cr.attempt),
        ];
        match &cr.after {
            Some((src, part, off)) => {
                let mut values = common.to_vec();
                values.extend([
                    ("source", src as &dyn fmt::Display),
                    ("partition", part),
                    ("offset", off),
                ]);
                fill(self.approx_crash_after, &values)
            }
            None => fill(self.approx_crash_first, &common),
        }
    }

    /// Approximation: a savepoint taken where the sources hold (`savepoint` or `stop_with_savepoint`).
    pub fn approx_held_savepoint(&self, action: &str, h: &HoldPoint) -> String {
        fill(
            self.approx_held_savepoint,
            &[
                ("action", &action),
                ("at_ms", &h.at_ms),
                ("checkpoint", &h.checkpoint),
            ],
        )
    }

    /// Approximation: a checkpoint trigger or cancel at a lab time.
    pub fn approx_timed(&self, action: &str, at_ms: u64) -> String {
        fill(self.approx_timed, &[("action", &action), ("at_ms", &at_ms)])
    }

    /// Approximation: a savepoint the lab did not complete, at its lab time.
    pub fn approx_unheld_savepoint(&self, action: &str, at_ms: u64) -> String {
        fill(
            self.approx_unheld_savepoint,
            &[("action", &action), ("at_ms", &at_ms)],
        )
    }

    /// Approximation: a script step left out, and why.
    pub fn approx_ignored(&self, action: &str, at_ms: u64, reason: &IgnoredBecause) -> String {
        let reason = match reason {
            IgnoredBecause::Lab(IgnoreCause::JobNotRunning(status)) => self.status(*status).into(),
            IgnoredBecause::Ended { status, end_ms } => fill(
                self.ignored_ended,
                &[("status", &self.status(*status)), ("end_ms", end_ms)],
            ),
            IgnoredBecause::NoSuchFailure => self.ignored_no_failure.into(),
        };
        fill(
            self.approx_ignored,
            &[("action", &action), ("at_ms", &at_ms), ("reason", &reason)],
        )
    }

    /// How a reason names the job's status.
    fn status(&self, status: JobStatus) -> &'static str {
        match status {
            JobStatus::Restarting => self.job_restarting,
            JobStatus::Failed => self.job_failed,
            JobStatus::Finished => self.job_finished,
            JobStatus::Canceled => self.job_canceled,
            JobStatus::Running => self.job_running,
        }
    }
}

/// A wording file that cannot be used: which key (or the parser's position) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordingError {
    /// The key (`approx_crash_after.zh-Hant`), or the file for a syntax error.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for WordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{FILE}: {}: {}", self.field, self.message)
    }
}

impl std::error::Error for WordingError {}

/// The file's languages, as its members name them.
const LANGS: [(Lang, &str); 3] = [
    (Lang::Zh, "zh"),
    (Lang::ZhHant, "zh-Hant"),
    (Lang::En, "en"),
];

/// The three languages' wordings, parsed and checked from the file's text.
pub(super) struct Wordings {
    by_lang: [Wording; 3],
}

/// Parses and checks `text`: every key of the exporter present with a non-empty
/// text in every language, naming exactly the values it fills in, and no other key
/// (but `_readme`).
fn parse(text: &str) -> Result<Wordings, WordingError> {
    let err = |field: &str, message: String| WordingError {
        field: field.into(),
        message,
    };
    let doc: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| err("(file)", e.to_string()))?;
    // One array per language, in the order of KEYS ("" until the key is read).
    let mut tables = [[""; KEYS.len()]; 3];
    for (key, entry) in &doc {
        if key.starts_with('_') {
            continue;
        }
        let Some(k) = KEYS.iter().position(|(name, _)| name == key) else {
            return Err(err(key, "not a key of the exporter's wording".into()));
        };
        let mut expected = KEYS[k].1.to_vec();
        expected.sort_unstable();
        for (table, (_, lang)) in tables.iter_mut().zip(LANGS) {
            let field = format!("{key}.{lang}");
            let text = match entry.get(lang) {
                Some(serde_json::Value::String(s)) if !s.trim().is_empty() => s,
                Some(_) => return Err(err(&field, "must be a non-empty string".into())),
                None => return Err(err(&field, "missing".into())),
            };
            let named = placeholders(text);
            if named != expected {
                return Err(err(
                    &field,
                    format!("names the values {named:?}; it must name {expected:?}"),
                ));
            }
            // Kept for the life of the program, like compiled-in text; parsed once.
            table[k] = Box::leak(text.clone().into_boxed_str());
        }
    }
    if let Some(((key, _), _)) = KEYS.iter().zip(tables[0]).find(|(_, t)| t.is_empty()) {
        return Err(err(key, "missing".into()));
    }
    Ok(Wordings {
        by_lang: tables.map(Wording::from_texts),
    })
}

/// The distinct `{name}`s in `text`, sorted.
fn placeholders(text: &str) -> Vec<&str> {
    let mut names: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

thread_local! {
    /// The wording, once parsed: compiled in or supplied by [`provide`].
    static WORDINGS: OnceCell<&'static Wordings> = const { OnceCell::new() };
}

/// The file compiled in (the `builtins` feature).
#[cfg(feature = "builtins")]
const BUILTIN: &str = include_str!("export.json");

/// The parsed wording, if it is available: compiled in, or supplied.
fn wordings() -> Option<&'static Wordings> {
    WORDINGS.with(|cell| {
        #[cfg(feature = "builtins")]
        if cell.get().is_none() {
            let parsed = parse(BUILTIN).unwrap_or_else(|e| panic!("the built-in {e}"));
            let _ = cell.set(Box::leak(Box::new(parsed)));
        }
        cell.get().copied()
    })
}

/// Supplies the wording file's text when it is not compiled in. The first valid
/// text stays; a text that cannot be used is refused, naming the key.
pub fn provide(text: &str) -> Result<(), WordingError> {
    if wordings().is_some() {
        return Ok(());
    }
    let parsed = parse(text)?;
    WORDINGS.with(|cell| {
        let _ = cell.set(Box::leak(Box::new(parsed)));
    });
    Ok(())
}

/// Whether the wording is available (compiled in, or supplied).
pub fn available() -> bool {
    wordings().is_some()
}

/// The words in `lang`; `None` until the wording is supplied.
pub(super) fn of(lang: Lang) -> Option<&'static Wording> {
    let w = wordings()?;
    let i = LANGS.iter().position(|(l, _)| *l == lang)?;
    Some(&w.by_lang[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "builtins")]
    #[test]
    fn the_built_in_file_has_every_key_in_every_language() {
        let w = parse(BUILTIN).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(w.by_lang[2].job_graph, "The job graph.");
        assert_eq!(w.by_lang[0].job_graph, "作业图。");
        assert_eq!(w.by_lang[1].job_graph, "作業圖。");
    }

    fn entry(zh: &str, hant: &str, en: &str) -> serde_json::Value {
        serde_json::json!({"zh": zh, "zh-Hant": hant, "en": en})
    }

    /// A valid file as a JSON map, to break one entry of.
    fn valid() -> serde_json::Map<String, serde_json::Value> {
        KEYS.iter()
            .map(|(key, values)| {
                let text: String = values.iter().map(|v| format!(" {{{v}}}")).collect();
                (
                    key.to_string(),
                    entry(
                        &format!("z{text}"),
                        &format!("z{text}"),
                        &format!("x{text}"),
                    ),
                )
            })
            .collect()
    }

    fn parse_map(m: serde_json::Map<String, serde_json::Value>) -> Result<Wordings, WordingError> {
        parse(&serde_json::Value::Object(m).to_string())
    }

    #[test]
    fn a_file_with_every_key_parses_and_fills_in_its_values() {
        let w = parse_map(valid()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(w.by_lang[2].approx_timed("savepoint", 40), "x savepoint 40");
        assert_eq!(
            fill("{a} {b} {a} {c} {", &[("a", &"{b}"), ("b", &1)]),
            "{b} 1 {b} {c} {"
        );
    }

    #[test]
    fn a_missing_key_an_unknown_key_and_a_wrong_value_name_are_refused_naming_the_field() {
        let mut m = valid();
        m.remove("job_graph");
        let e = parse_map(m).err().expect("refused");
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("job_graph", "missing")
        );
        assert!(
            e.to_string().starts_with("i18n/export.json: job_graph: "),
            "{e}"
        );

        let mut m = valid();
        m.insert("job_grpah".into(), entry("a", "a", "a"));
        let e = parse_map(m).err().expect("refused");
        assert_eq!(e.field, "job_grpah");

        let mut m = valid();
        m.insert(
            "approx_timed".into(),
            entry("{action} {at_ms}", "{action} {atms}", "{action} {at_ms}"),
        );
        let e = parse_map(m).err().expect("refused");
        assert_eq!(e.field, "approx_timed.zh-Hant");
        assert!(e.message.contains("\"atms\""), "{e}");

        let mut m = valid();
        m.insert(
            "job_graph".into(),
            serde_json::json!({"zh": "a", "en": "b"}),
        );
        let e = parse_map(m).err().expect("refused");
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("job_graph.zh-Hant", "missing")
        );

        let e = parse("{").err().expect("refused");
        assert_eq!(e.field, "(file)");
    }
}
