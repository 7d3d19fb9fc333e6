//! The Flink code tab's pure side: the run on stage — its scenario as edited,
//! its mode and its seed — as `lab export flink` writes it (the engine's
//! exporter, compiled into the page), which of its lines are the study notes'
//! `CheckpointConfig` lines, the job methods a learner reads first, and the
//! commands that run the file on real Flink.

use engine::export::flink::{self, Export, Options};
use engine::scenario::ScenarioError;
use engine::Scenario;

use crate::i18n::Lang;

/// Flink's jars as `flink.sh` installs them (PyPI's `apache-flink-libraries`).
pub const FLINK_VERSION: &str = "2.3.0";

/// The run's scenario document (`serde_json` of the scenario being run) under
/// `seed`, exported with comments in `lang`; an unmappable scenario is refused
/// with the field named.
pub fn export_for(doc: &serde_json::Value, seed: u64, lang: Lang) -> Result<Export, ScenarioError> {
    let mut scenario = Scenario::from_json(&doc.to_string())?;
    scenario.seed = seed;
    flink::export(
        &scenario,
        &Options {
            lang: match lang {
                Lang::Zh => flink::Lang::Zh,
                Lang::ZhHant => flink::Lang::ZhHant,
                Lang::En => flink::Lang::En,
            },
            ..Options::default()
        },
    )
}

/// How a line of the Java is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// `env.enableCheckpointing(…)` or `env.getCheckpointConfig().…` — the study
    /// notes' lines, highlighted.
    Checkpointing,
    /// A comment line.
    Comment,
    /// Any other line.
    Code,
}

/// The kind of one line of the exported Java.
pub fn line_kind(line: &str) -> LineKind {
    let t = line.trim_start();
    if t.starts_with("env.enableCheckpointing(") || t.starts_with("env.getCheckpointConfig().") {
        LineKind::Checkpointing
    } else if t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with("* ")
        || t == "*"
        || t.starts_with("*/")
    {
        LineKind::Comment
    } else {
        LineKind::Code
    }
}

/// The highlighted lines, in order, without their indentation.
pub fn checkpointing_lines(java: &str) -> Vec<&str> {
    java.lines()
        .filter(|l| line_kind(l) == LineKind::Checkpointing)
        .map(str::trim_start)
        .collect()
}

/// The job methods (`static String oddEvenSum(Lab lab) …`, each with its doc
/// line): where the configuration, the job graph and the script are, as
/// `(first line number, lines)` — line numbers from 1, as in the file.
pub fn job_methods(java: &str) -> Vec<(usize, Vec<&str>)> {
    let lines: Vec<&str> = java.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let is_job = l.starts_with("    static String ")
            && l.ends_with("(Lab lab) throws Exception {")
            && !l.starts_with("    static String run(");
        if !is_job {
            i += 1;
            continue;
        }
        let start = if i > 0 && lines[i - 1].starts_with("    /**") {
            i - 1
        } else {
            i
        };
        let end = (i..lines.len())
            .find(|&k| lines[k] == "    }")
            .unwrap_or(lines.len() - 1);
        out.push((start + 1, lines[start..=end].to_vec()));
        i = end + 1;
    }
    out
}

/// The commands that run an export on real Flink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commands {
    /// In a checkpoint-lab checkout (installs what is missing).
    pub in_repo: String,
    /// On any machine with Java 17 and pip: install Flink's jars, compile, run.
    pub plain: Vec<String>,
}

/// The commands for `export`'s file.
pub fn commands(export: &Export) -> Commands {
    let lib = format!("flink-{FLINK_VERSION}/pyflink/lib");
    Commands {
        in_repo: format!("bash scripts/flink.sh {} --stats stats.json", export.file_name),
        plain: vec![
            format!(
                "pip install --no-deps --target flink-{FLINK_VERSION} apache-flink-libraries=={FLINK_VERSION}"
            ),
            format!(
                "javac -encoding UTF-8 -cp \"{lib}/*\" {}",
                export.file_name
            ),
            format!(
                "java -cp \"{lib}/*:.\" {} --stats stats.json",
                export.class_name
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::runner;

    fn doc_of(name: &str, mode: Option<engine::runner::ModeOverride>) -> (serde_json::Value, u64) {
        let mut s = runner::load(name).unwrap();
        if let Some(m) = mode {
            let opts = runner::RunOptions {
                mode: Some(m),
                ..Default::default()
            };
            runner::apply_options(&mut s, &opts).unwrap();
        }
        let seed = s.seed;
        (serde_json::to_value(&s).unwrap(), seed)
    }

    #[test]
    fn the_run_on_stage_exports_as_the_cli_does() {
        let (doc, seed) = doc_of("odd-even-sum", None);
        let e = export_for(&doc, seed, Lang::En).unwrap();
        let cli = flink::builtins(&Options::default())
            .into_iter()
            .find(|(n, _)| *n == "odd-even-sum")
            .unwrap()
            .1
            .unwrap();
        assert_eq!(
            e.java, cli.java,
            "the page's export is `lab export flink`'s"
        );
        assert_eq!(e.file_name, "OddEvenSum.java");
        assert!(
            !e.java.contains("setMaxParallelism(") || e.java.contains("setMaxParallelism(128)")
        );
        // pv-count leaves max parallelism unset, and its export says so.
        let (pv, seed) = doc_of("pv-count", None);
        assert!(!export_for(&pv, seed, Lang::En)
            .unwrap()
            .java
            .contains("setMaxParallelism("));
        let mut edited = pv.clone();
        edited["job"]["max_parallelism"] = serde_json::json!(256);
        assert!(export_for(&edited, seed, Lang::En)
            .unwrap()
            .java
            .contains("env.setMaxParallelism(256);"));
    }

    #[test]
    fn mode_seed_and_language_follow_the_run() {
        use engine::runner::ModeOverride;
        let (aligned, seed) = doc_of("unaligned-backpressure", Some(ModeOverride::Aligned));
        let (alo, _) = doc_of("unaligned-backpressure", Some(ModeOverride::AtLeastOnce));
        let a = export_for(&aligned, seed, Lang::En).unwrap();
        assert!(a.java.contains("enableUnalignedCheckpoints(false);"));
        let l = export_for(&alo, seed, Lang::Zh).unwrap();
        assert!(l.java.contains("CheckpointingMode.AT_LEAST_ONCE);"));
        assert!(l.java.contains("检查点配置"));
        let (pv, seed) = doc_of("pv-count", None);
        let seeded = export_for(&pv, seed + 1, Lang::En).unwrap();
        assert!(seeded
            .java
            .contains(&format!("static final long SEED = {};", seed + 1)));
        assert_ne!(seeded.java, export_for(&pv, seed, Lang::En).unwrap().java);
    }

    #[test]
    fn a_scenario_flink_cannot_run_is_refused_naming_the_field() {
        let (doc, seed) = doc_of("jobmanager-crash-jobmanager", None);
        let err = export_for(&doc, seed, Lang::En).unwrap_err();
        assert!(err.has_field("script[0].action"), "{err}");
        assert!(err.to_string().contains("crash_jobmanager"));
    }

    #[test]
    fn highlighted_lines_methods_and_commands() {
        let (doc, seed) = doc_of("odd-even-sum", None);
        let e = export_for(&doc, seed, Lang::En).unwrap();
        let hl = checkpointing_lines(&e.java);
        assert_eq!(
            hl[0],
            "env.enableCheckpointing(550, CheckpointingMode.EXACTLY_ONCE);"
        );
        assert!(hl.contains(&"env.getCheckpointConfig().setMinPauseBetweenCheckpoints(0);"));
        assert!(
            hl.iter().all(|l| !l.starts_with("//")),
            "the 1.x comment is not highlighted"
        );
        assert_eq!(
            line_kind("        // 1.x: env.getCheckpointConfig().x()"),
            LineKind::Comment
        );
        assert_eq!(line_kind("     * a ValueState"), LineKind::Comment);
        let methods = job_methods(&e.java);
        assert_eq!(methods.len(), 1);
        let (first, lines) = &methods[0];
        assert_eq!(e.java.lines().nth(first - 1), Some(lines[0]));
        assert!(lines[1].contains("static String oddEvenSum(Lab lab)"));
        assert_eq!(*lines.last().unwrap(), "    }");
        assert!(lines.iter().any(|l| l.contains("env.enableCheckpointing(")));
        let (sp, seed) = doc_of("savepoint-rescale", None);
        assert_eq!(
            job_methods(&export_for(&sp, seed, Lang::En).unwrap().java).len(),
            2
        );
        let c = commands(&e);
        assert_eq!(
            c.in_repo,
            "bash scripts/flink.sh OddEvenSum.java --stats stats.json"
        );
        assert!(c.plain[1].ends_with(" OddEvenSum.java"));
        assert!(c.plain[2].contains(" OddEvenSum --stats"));
    }
}
