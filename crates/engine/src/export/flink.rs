//! `lab export flink`: a scenario as one self-contained Java source for Flink 2.3's
//! DataStream API, needing nothing but Flink's own jars.
//!
//! What maps to what:
//! - the job graph: one operator per scenario operator, named and `uid`'d by its
//!   uid, with its parallelism (and the job's max parallelism when the document
//!   sets it); `forward`, `keyBy`, `rebalance`, `broadcast` per edge; operator
//!   chaining off, as the lab draws every operator as its own task;
//! - sources: [`java`]'s `ReplayableSource`, a log whose next offsets live in
//!   operator list state (`getListState` or `getUnionListState`), pacing records
//!   by the lab's times;
//! - keyed operators: `ValueState`, `ListState`, `ReducingState`,
//!   `AggregatingState`, `MapState` with the lab's names and `StateTtlConfig`
//!   (background cleanup as the lab's `in_background` says, off by default); `broadcast_filter`:
//!   broadcast state;
//! - every checkpointing field, the state backend, the checkpoint storage, the
//!   restart strategy: Flink 2.x option or `CheckpointConfig` setter, the 1.x name
//!   in a comment where it changed;
//! - sinks: `two_phase_commit` as a `TwoPhaseCommitSinkFunction` on local files
//!   (pre-commit = a pending file, commit = rename), the plain and idempotent
//!   sinks as files too;
//! - the script: [`script`] places each action where the lab's run says it lands.
//!
//! What has no Flink counterpart is approximated and listed ([`Export::approximations`],
//! also at the top of the Java); what cannot be mapped at all is refused with an
//! error naming the field.

mod configuration;
mod graph;
mod java;
mod restart;
mod wording;

pub use crate::provided::UnknownFile;
pub use java::{missing as missing_fragments, provide as provide_fragment, NAMES as FRAGMENTS};
pub use wording::{
    available as wording_available, provide as provide_wording, WordingError, FILE as WORDING_FILE,
};
pub mod script;

use crate::scenario::{
    FieldError, Localized, Scenario, ScenarioError, ScriptStep, SnapshotSelector, StorageKind,
};
use script::{JobPlan, Placed};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use wording::Wording;

/// The language of the export's comments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
    /// Traditional Chinese (generated from the Simplified; see `scripts/hant.cjs`).
    ZhHant,
}

/// A `--lang` that is not one of the languages (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl std::fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--lang: {:?} is not a language (expected en, zh or zh-Hant)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLang {}

impl Lang {
    /// `en`, `zh` (also `zh-CN`, `zh-Hans`) or `zh-Hant` (also `zh-TW`,
    /// `zh-HK`), in any case and with `_` for `-`.
    pub fn parse(s: &str) -> Result<Lang, UnknownLang> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "en" => Ok(Lang::En),
            "zh" | "zh-cn" | "zh-hans" => Ok(Lang::Zh),
            "zh-hant" | "zh-tw" | "zh-hk" => Ok(Lang::ZhHant),
            _ => Err(UnknownLang(s.to_string())),
        }
    }

    /// A scenario's title or description in this language (Traditional falls
    /// back to Simplified where the file lacks it).
    fn pick(self, text: &Localized) -> &str {
        match self {
            Lang::En => &text.en,
            Lang::Zh => &text.zh,
            Lang::ZhHant => text.zh_hant_or_zh(),
        }
    }
}

/// How to export.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Language of the comments.
    pub lang: Lang,
    /// Add the hooks the differential test reads (key placement, restored state,
    /// commits); off for a learner's export.
    pub observe: bool,
    /// Wall-clock ms per lab ms (every time of the scenario is multiplied by it).
    pub time_scale: f64,
    /// The Java class (and file) name; default from the scenario's name.
    pub class_name: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            lang: Lang::En,
            observe: false,
            time_scale: 1.0,
            class_name: None,
        }
    }
}

/// An exported job.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The public class, e.g. `OddEvenSum`.
    pub class_name: String,
    /// `<class_name>.java`.
    pub file_name: String,
    /// The Java source.
    pub java: String,
    /// What is approximated and how, one sentence each (also at the top of the Java).
    pub approximations: Vec<String>,
}

/// Exports `scenario` (validated; a built-in or a parsed document).
pub fn export(scenario: &Scenario, opts: &Options) -> Result<Export, ScenarioError> {
    let missing = missing_fragments();
    if !missing.is_empty() {
        return Err(ScenarioError {
            errors: vec![FieldError {
                field: "java".into(),
                message: format!(
                    "the exporter's Java fragments are not loaded: {}",
                    missing.join(", ")
                ),
            }],
        });
    }
    let Some(words) = wording::of(opts.lang) else {
        return Err(ScenarioError {
            errors: vec![FieldError {
                field: "wording".into(),
                message: format!("the exporter's wording ({WORDING_FILE}) is not loaded"),
            }],
        });
    };
    scenario.validate()?;
    refuse_unmappable(scenario)?;
    if !(opts.time_scale.is_finite() && opts.time_scale >= 0.1 && opts.time_scale <= 100.0) {
        return Err(ScenarioError {
            errors: vec![FieldError {
                field: "--time-scale".into(),
                message: format!(
                    "{} is not a time scale between 0.1 and 100 (wall-clock ms per lab ms)",
                    opts.time_scale
                ),
            }],
        });
    }
    // The restore chain, the earliest job first.
    let mut chain = vec![scenario];
    while let Some(r) = &chain.last().expect("non-empty").restore {
        chain.push(&r.from);
    }
    chain.reverse();
    let seed = scenario.seed;
    let mut plans = Vec::new();
    let mut lab_refusal = None;
    for (i, doc) in chain.iter().enumerate() {
        match script::plan(doc, seed) {
            Ok(p) => plans.push(Some(p)),
            // The lab refuses the restore (e.g. state it cannot map): the export
            // still runs, and Flink's own answer is what the learner sees.
            Err(e) if i > 0 && e.errors.iter().all(|f| f.field.starts_with("restore")) => {
                lab_refusal = Some(e.to_string());
                plans.push(None);
            }
            Err(e) => return Err(e),
        }
    }
    let class_name = match &opts.class_name {
        Some(c) => {
            if java::class_name(c) != *c || java::CLASSES.contains(&c.as_str()) {
                return Err(ScenarioError {
                    errors: vec![FieldError {
                        field: "--class".into(),
                        message: format!("{c:?} is not a Java class name this export can use"),
                    }],
                });
            }
            c.clone()
        }
        None => {
            let mut c = java::class_name(&scenario.name);
            if java::CLASSES.contains(&c.as_str()) {
                c.push_str("Job");
            }
            c
        }
    };
    let mut g = Generator {
        lang: opts.lang,
        words,
        scale: opts.time_scale,
        observe: opts.observe,
        chain: &chain,
        plans: &plans,
        lab_refusal,
        approximations: Vec::new(),
        fragments: BTreeSet::new(),
    };
    let java = g.generate(&class_name);
    Ok(Export {
        file_name: format!("{class_name}.java"),
        class_name,
        java,
        approximations: g.approximations,
    })
}

/// What cannot be mapped to a Flink job at all, each naming its field.
fn refuse_unmappable(scenario: &Scenario) -> Result<(), ScenarioError> {
    let mut errors = Vec::new();
    let mut doc = Some(scenario);
    let mut prefix = String::new();
    while let Some(s) = doc {
        for (i, step) in s.script.iter().enumerate() {
            if let ScriptStep::CrashJobmanager { .. } = step {
                errors.push(FieldError {
                    field: format!("{prefix}script[{i}].action"),
                    message: "crash_jobmanager cannot be exported: a local MiniCluster's \
                              JobManager runs inside the job's own JVM, and a JobManager \
                              failover needs high availability (ZooKeeper or Kubernetes) \
                              with a second JobManager"
                        .into(),
                });
            }
        }
        doc = s.restore.as_ref().map(|r| &*r.from);
        prefix.push_str("restore.from.");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ScenarioError { errors })
    }
}

struct Generator<'a> {
    lang: Lang,
    /// The comments' words in `lang`.
    words: &'static Wording,
    scale: f64,
    observe: bool,
    chain: &'a [&'a Scenario],
    plans: &'a [Option<JobPlan>],
    lab_refusal: Option<String>,
    approximations: Vec<String>,
    fragments: BTreeSet<&'static str>,
}

/// A method body being written: lines at an indent.
struct Code {
    text: String,
}

impl Code {
    fn new() -> Code {
        Code {
            text: String::new(),
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.text.push_str("    ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// `// text`, wrapped at about 100 columns.
    fn comment(&mut self, indent: usize, s: &str) {
        for l in wrap(s, 96 - indent * 4) {
            self.line(indent, &format!("// {l}"));
        }
    }
}

fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        let wide = cur.chars().count() + word.chars().count() + 1 > width;
        if !cur.is_empty() && wide {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

impl Generator<'_> {
    /// The exporter's words in the chosen language.
    fn w(&self) -> &'static Wording {
        self.words
    }

    /// A lab duration in wall-clock ms.
    fn ms(&self, lab_ms: u64) -> u64 {
        (lab_ms as f64 * self.scale).round() as u64
    }

    fn approx(&mut self, note: impl Into<String>) {
        let s = note.into();
        if !self.approximations.contains(&s) {
            self.approximations.push(s);
        }
    }

    fn generate(&mut self, class_name: &str) -> String {
        let main = *self.chain.last().expect("non-empty");
        let jobs = self.chain.len();
        let needs_script_hooks = self.observe
            || self.chain.iter().any(|s| {
                s.job.operators.iter().any(|o| o.process_ms > 0)
                    || s.script
                        .iter()
                        .any(|st| matches!(st, ScriptStep::Crash { .. }))
            });
        self.note_common();

        // The job methods first: they decide which fragments are needed.
        let mut methods = String::new();
        let method_names = self.method_names();
        for (j, name) in method_names.iter().enumerate() {
            methods.push_str(&self.job_method(j, name));
            methods.push('\n');
        }
        let crashes = self.crash_table();
        let sources = self.sources_table();
        let process = self.process_table();
        let slots = self
            .chain
            .iter()
            .flat_map(|s| s.job.operators.iter().map(|o| o.parallelism))
            .max()
            .unwrap_or(1);

        let mut out = String::new();
        self.header(&mut out, main, class_name);
        out.push_str(IMPORTS);
        out.push('\n');
        let _ = writeln!(out, "public class {class_name} {{");
        let mut c = Code::new();
        c.comment(1, self.w().run_decisions);
        c.line(
            1,
            &format!(
                "static final String SCENARIO = {};",
                java::string(&main.name)
            ),
        );
        c.line(1, &format!("static final long SEED = {};", main.seed));
        c.line(
            1,
            &format!(
                "static final double TIME_SCALE = {:?}; // {}",
                self.scale,
                self.w().time_scale_unit
            ),
        );
        c.line(1, &format!("static final int SLOTS = {slots};"));
        c.line(1, &format!("static final List<Crash> CRASHES = {crashes};"));
        c.line(
            1,
            &format!("static final List<Map<String, Integer>> SOURCES = {sources};"),
        );
        c.line(
            1,
            &format!("static final Map<String, Long> PROCESS_MS = {process};"),
        );
        c.line(0, "");
        c.line(
            1,
            "public static void main(String[] args) throws Exception {",
        );
        c.line(2, "Lab lab = Lab.start(args, null);");
        c.line(2, "System.out.println(run(lab));");
        c.line(2, "lab.finish();");
        c.line(1, "}");
        c.line(0, "");
        c.comment(1, self.w().test_harness_entry);
        c.line(
            1,
            "public static String run(String[] args, MiniCluster cluster) throws Exception {",
        );
        c.line(2, "Lab lab = Lab.start(args, cluster);");
        c.line(2, "try {");
        c.line(3, "return run(lab);");
        c.line(2, "} finally {");
        c.line(3, "lab.finish();");
        c.line(2, "}");
        c.line(1, "}");
        c.line(0, "");
        c.line(1, "static String run(Lab lab) throws Exception {");
        for (j, name) in method_names.iter().enumerate() {
            if j + 1 < jobs {
                c.comment(
                    2,
                    &format!(
                        "{} {}",
                        self.w().earlier_job,
                        java::string(&self.chain[j].name)
                    ),
                );
                c.line(2, &format!("{name}(lab);"));
            } else {
                c.line(2, &format!("return {name}(lab);"));
            }
        }
        c.line(1, "}");
        out.push_str(&c.text);
        out.push('\n');
        out.push_str(&methods);
        self.append_fragments(
            &mut out,
            java::Filter {
                lang: self.lang,
                observe: self.observe,
                script: needs_script_hooks,
            },
        );
        out.push_str("}\n");
        out
    }

    /// One Java method name per job of the chain: its name as an identifier, made
    /// unique and never a reserved word.
    fn method_names(&self) -> Vec<String> {
        let mut seen = BTreeSet::new();
        self.chain
            .iter()
            .map(|s| {
                let mut n = java::variable_name(&s.name);
                while java::RESERVED.contains(&n.as_str()) || !seen.insert(n.clone()) {
                    n.push_str("Job");
                }
                n
            })
            .collect()
    }

    /// The nested classes the job methods need: the fragments, the function
    /// classes, and the `Lab` harness.
    /// `filter`: what the fragments keep (language, observation hooks, script hooks).
    fn append_fragments(&self, out: &mut String, filter: java::Filter) {
        let mut frags = vec![("Event", vec![]), ("ReplayableSource", vec![])];
        for f in FUNCTION_ORDER {
            if self.fragments.contains(f) {
                frags.push((f, vec![]));
            }
        }
        for (name, reps) in frags {
            out.push_str(&java::fragment(name, filter, &reps));
            out.push('\n');
        }
        for (class, frag, reps) in FUNCTIONS {
            if self.fragments.contains(class) {
                out.push_str(&java::fragment(frag, filter, reps));
                out.push('\n');
            }
        }
        out.push_str(&java::fragment("Lab", filter, &[]));
    }

    fn note_common(&mut self) {
        self.approx(self.w().approx_time_scale(self.scale));
        self.approx(self.w().approx_sources);
        self.approx(self.w().approx_channels);
        self.approx(self.w().approx_chaining);
        let mut any_process = false;
        let mut any_async = false;
        let mut any_jm_limit = false;
        let mut any_manual = false;
        let mut any_txn_timeout = false;
        for s in self.chain {
            any_process |= s.job.operators.iter().any(|o| o.process_ms > 0);
            any_txn_timeout |= s
                .job
                .operators
                .iter()
                .any(|o| o.transaction_timeout_ms.is_some());
            if let Some(c) = &s.checkpointing {
                any_async |= c.async_ms > 0;
                any_jm_limit |= c.storage == StorageKind::Jobmanager;
                any_manual |= c.interval_ms.is_none();
            }
        }
        if any_process {
            self.approx(self.w().approx_process_ms);
        }
        if any_async {
            self.approx(self.w().approx_async_ms);
        }
        if any_jm_limit {
            self.approx(self.w().approx_max_state_bytes);
        }
        if any_manual {
            self.approx(self.w().approx_manual_interval);
        }
        if any_txn_timeout {
            self.approx(self.w().approx_transaction_timeout);
        }
    }

    fn header(&self, out: &mut String, main: &Scenario, class_name: &str) {
        let mut c = Code::new();
        let title = main.title.as_ref().map(|t| self.lang.pick(t).to_string());
        c.comment(
            0,
            &format!(
                "{}{} — {}",
                main.name,
                title.map(|t| format!(": {t}")).unwrap_or_default(),
                self.w().lesson_export_title
            ),
        );
        if let Some(d) = &main.description {
            c.line(0, "//");
            c.comment(0, self.lang.pick(d));
        }
        c.line(0, "//");
        c.comment(0, self.w().needs_flink_jars);
        c.line(
            0,
            &format!(
                "//   javac -encoding UTF-8 -cp \"$FLINK_LIB/*\" {class_name}.java && java -cp \"$FLINK_LIB/*:.\" {class_name} [--ui] [--stats FILE]"
            ),
        );
        c.line(
            0,
            &format!(
                "//   bash scripts/flink.sh {class_name}.java     ({})",
                self.w().in_checkpoint_lab
            ),
        );
        c.comment(0, self.w().runs_on_minicluster);
        c.line(0, "//");
        c.comment(0, self.w().approximations_heading);
        for a in &self.approximations {
            let lines = wrap(a, 92);
            for (i, l) in lines.iter().enumerate() {
                c.line(0, &format!("//{}{l}", if i == 0 { "  - " } else { "    " }));
            }
        }
        out.push_str(&c.text);
        out.push('\n');
    }

    fn crash_table(&self) -> String {
        let mut items = Vec::new();
        for (j, plan) in self.plans.iter().enumerate() {
            for p in plan.iter().flat_map(|p| &p.placed) {
                if let Placed::Crash(c) = p {
                    let (src, part, off) = match &c.after {
                        Some((s, p, o)) => (java::string(s), *p, *o),
                        None => ("null".into(), 0, 0),
                    };
                    items.push(format!(
                        "new Crash({j}, {}, {}, {src}, {part}, {off}, {})",
                        java::string(&c.task),
                        c.attempt,
                        c.at_ms
                    ));
                }
            }
        }
        if items.is_empty() {
            "List.of()".into()
        } else {
            format!("List.of(\n            {})", items.join(",\n            "))
        }
    }

    fn sources_table(&self) -> String {
        let jobs: Vec<String> = self
            .chain
            .iter()
            .map(|s| {
                let entries: Vec<String> = s
                    .job
                    .operators
                    .iter()
                    .filter(|o| o.is_source())
                    .map(|o| format!("Map.entry({}, {})", java::string(&o.uid), o.parallelism))
                    .collect();
                format!("Map.ofEntries({})", entries.join(", "))
            })
            .collect();
        format!("List.of({})", jobs.join(", "))
    }

    fn process_table(&self) -> String {
        let mut m = BTreeMap::new();
        for s in self.chain {
            for o in &s.job.operators {
                if o.process_ms > 0 {
                    m.insert(o.uid.clone(), self.ms(o.process_ms));
                }
            }
        }
        let entries: Vec<String> = m
            .iter()
            .map(|(u, ms)| format!("Map.entry({}, {ms}L)", java::string(u)))
            .collect();
        format!("Map.ofEntries({})", entries.join(", "))
    }

    /// The static method that builds and runs job `j` of the chain.
    fn job_method(&mut self, j: usize, name: &str) -> String {
        let s = self.chain[j];
        let last = j + 1 == self.chain.len();
        let mut c = Code::new();
        let role = if last {
            self.w().this_job
        } else {
            self.w().earlier_job
        };
        c.line(1, &format!("/** {role} {}. */", java::string(&s.name)));
        c.line(
            1,
            &format!("static String {name}(Lab lab) throws Exception {{"),
        );
        c.line(2, "Configuration conf = new Configuration();");
        if let Some(r) = &s.restore {
            self.restore_lines(&mut c, j, r);
        }
        self.backend_lines(&mut c, s.checkpointing.as_ref());
        self.restart_lines(&mut c, s);
        c.line(2, "StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);");
        c.line(
            2,
            &format!(
                "env.disableOperatorChaining(); // {}",
                self.w().chaining_off
            ),
        );
        c.line(
            2,
            &format!(
                "env.setBufferTimeout(0);       // {}",
                self.w().buffer_timeout_zero
            ),
        );
        if let Some(max_parallelism) = s.job.max_parallelism {
            c.line(
                2,
                &format!(
                    "env.setMaxParallelism({max_parallelism}); // {}",
                    self.w().key_group_count
                ),
            );
        } else {
            c.comment(2, self.w().max_parallelism_derived);
        }
        c.line(0, "");
        self.checkpoint_lines(&mut c, s.checkpointing.as_ref());
        c.line(0, "");
        self.graph_lines(&mut c, s);
        c.line(0, "");
        self.script_lines(&mut c, j, s);
        c.line(1, "}");
        c.text
    }
}

/// Which snapshot of the earlier job the lab restores: `(is a savepoint, index
/// among the earlier job's completed savepoints)`.
fn pick_snapshot(earlier: &JobPlan, selector: SnapshotSelector) -> Option<(bool, usize)> {
    use crate::coordinator::CheckpointStatus;
    let done: Vec<_> = earlier
        .summary
        .checkpoints
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed)
        .collect();
    let savepoints: Vec<_> = done.iter().filter(|c| c.kind == "savepoint").collect();
    let last_sp = savepoints.len().checked_sub(1).map(|k| (true, k));
    match selector {
        SnapshotSelector::LatestSavepoint => last_sp,
        SnapshotSelector::LatestCheckpoint => Some((false, 0)),
        SnapshotSelector::Latest => match done.last() {
            Some(c) if c.kind == "savepoint" => last_sp,
            Some(_) => Some((false, 0)),
            None => None,
        },
        SnapshotSelector::Id(id) => match savepoints.iter().position(|c| c.id.0 == id) {
            Some(k) => Some((true, k)),
            None => Some((false, 0)),
        },
    }
}

/// Function classes and the fragment (with replacements) that declares each.
/// `(class, fragment, replacements)`.
type FunctionClass = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const FUNCTIONS: &[FunctionClass] = &[
    ("Identity", "Map", &[("NAME", "Identity"), ("BODY", "e")]),
    (
        "Doubled",
        "Map",
        &[("NAME", "Doubled"), ("BODY", "e.withValue(e.value * 2)")],
    ),
    (
        "ParityKey",
        "Map",
        &[
            ("NAME", "ParityKey"),
            ("BODY", "e.withKey(e.value % 2 == 0 ? \"even\" : \"odd\")"),
        ],
    ),
    (
        "KeepEven",
        "Filter",
        &[("NAME", "KeepEven"), ("BODY", "e.value % 2 == 0")],
    ),
    (
        "KeepOdd",
        "Filter",
        &[("NAME", "KeepOdd"), ("BODY", "e.value % 2 != 0")],
    ),
    (
        "KeyedCount",
        "KeyedValue",
        &[
            ("NAME", "KeyedCount"),
            ("STATE", "count"),
            ("UPDATE", "(current == null ? 0 : current) + 1"),
        ],
    ),
    (
        "KeyedSum",
        "KeyedValue",
        &[
            ("NAME", "KeyedSum"),
            ("STATE", "sum"),
            ("UPDATE", "(current == null ? 0 : current) + e.value"),
        ],
    ),
];

/// Fragments that are classes of their own name, in the order they are written.
const FUNCTION_ORDER: &[&str] = &[
    "KeyedReduce",
    "KeyedAverage",
    "KeyedDedup",
    "KeyedWindowCount",
    "RulesFilter",
    "TransactionalFileSink",
    "AppendingFileSink",
    "UpsertFileSink",
];

const IMPORTS: &str = "\
import java.net.URI;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.*;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.state.*;
import org.apache.flink.api.common.typeinfo.*;
import org.apache.flink.api.common.typeutils.base.VoidSerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.*;
import org.apache.flink.core.execution.*;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.*;
import org.apache.flink.runtime.state.*;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.*;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.*;
import org.apache.flink.streaming.api.environment.*;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.streaming.api.functions.sink.legacy.*;
import org.apache.flink.streaming.api.functions.source.legacy.*;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.Collector;
";

/// Every built-in lesson: exported, or refused with the reason. For the tests and
/// `lab export flink --all`.
#[cfg(feature = "builtins")]
pub fn builtins(opts: &Options) -> Vec<(&'static str, Result<Export, ScenarioError>)> {
    crate::runner::BUILTINS
        .iter()
        .map(|(name, json)| {
            let result = Scenario::from_json(json).and_then(|s| export(&s, opts));
            (*name, result)
        })
        .collect()
}
