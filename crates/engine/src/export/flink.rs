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

mod java;
mod wording;

pub use crate::provided::UnknownFile;
pub use java::{missing as missing_fragments, provide as provide_fragment, NAMES as FRAGMENTS};
pub mod script;

use crate::scenario::{
    BackendKind, CheckpointingConfig, CheckpointingMode, Externalized, FieldError, FnName,
    ListStateMode, Localized, OperatorKind, OperatorSpec, PartitionSpec, Partitioning,
    RestartConfig, RestoreSpec, Scenario, ScenarioError, ScriptStep, SinkKind, SnapshotSelector,
    StorageKind, TtlConfig, ValuesKind,
};
use crate::state::ttl::{StateVisibility, UpdateType};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
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
        wording::of(self.lang)
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
        let method_names: Vec<String> = {
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
        };
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

        let filter = java::Filter {
            lang: self.lang,
            observe: self.observe,
            script: needs_script_hooks,
        };
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
        out.push_str("}\n");
        out
    }

    fn note_common(&mut self) {
        self.approx((self.w().approx_time_scale)(self.scale));
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

    fn restore_lines(&mut self, c: &mut Code, j: usize, r: &RestoreSpec) {
        let (allow, selector) = (r.allow_non_restored_state, r.snapshot);
        c.comment(2, self.w().restore_from_snapshot);
        c.comment(2, self.w().restore_by_hand);
        c.comment(2, self.w().restore_claim_mode);
        let earlier = self.plans[j - 1].as_ref();
        let chosen = earlier.and_then(|p| pick_snapshot(p, selector));
        let path = match chosen {
            Some((true, k)) => format!("lab.savepoint({}, {k})", j - 1),
            Some((false, _)) => format!("lab.retainedCheckpoint({})", j - 1),
            None => format!("lab.savepoint({}, -1)", j - 1),
        };
        c.line(
            2,
            &format!("conf.set(StateRecoveryOptions.SAVEPOINT_PATH, {path});"),
        );
        c.line(
            2,
            &format!(
                "conf.set(StateRecoveryOptions.RESTORE_MODE, org.apache.flink.core.execution.RecoveryClaimMode.{});",
                r.claim_mode.flink_name()
            ),
        );
        if allow {
            c.comment(2, self.w().allow_non_restored_state);
        }
        c.line(
            2,
            &format!("conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, {allow});"),
        );
        if let Some(msg) = &self.lab_refusal {
            c.comment(2, &format!("{} {msg}", self.w().lab_refuses_restore));
        }
    }

    fn backend_lines(&mut self, c: &mut Code, cfg: Option<&CheckpointingConfig>) {
        let Some(cfg) = cfg else {
            return;
        };
        match cfg.backend {
            BackendKind::Hashmap => {
                c.comment(2, self.w().backend_hashmap);
                c.line(
                    2,
                    "conf.set(StateBackendOptions.STATE_BACKEND, \"hashmap\");",
                );
            }
            BackendKind::Rocksdb => {
                c.comment(2, self.w().backend_rocksdb);
                c.line(
                    2,
                    "conf.set(StateBackendOptions.STATE_BACKEND, \"rocksdb\");",
                );
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);",
                );
            }
        }
        match cfg.storage {
            StorageKind::Filesystem => {
                c.comment(2, self.w().storage_filesystem);
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"filesystem\");",
                );
                c.line(2, "conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, lab.uri(\"checkpoints\"));");
            }
            StorageKind::Jobmanager => {
                c.comment(2, self.w().storage_jobmanager);
                c.line(
                    2,
                    "conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, \"jobmanager\");",
                );
            }
        }
        c.line(
            2,
            "conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, lab.uri(\"savepoints\"));",
        );
        c.line(
            2,
            &format!(
                "conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, {}); // execution.checkpointing.num-retained (1.x: state.checkpoints.num-retained)",
                cfg.retained
            ),
        );
        if !cfg.checkpoints_after_tasks_finish {
            c.line(
                2,
                "conf.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, false); // FLIP-147 off",
            );
        }
    }

    fn restart_lines(&mut self, c: &mut Code, s: &Scenario) {
        let d = |ms: u64| format!("Duration.ofMillis({ms})");
        match &s.restart {
            None if s.checkpointing.is_some() => {
                c.comment(2, self.w().restart_default_exponential);
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.0);",
                );
            }
            None => c.comment(2, self.w().restart_default_none),
            Some(RestartConfig::None) => {
                c.comment(2, self.w().restart_none);
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"none\");",
                );
            }
            Some(RestartConfig::FixedDelay { attempts, delay_ms }) => {
                c.comment(
                    2,
                    &format!(
                        "{} (1.x: env.setRestartStrategy(RestartStrategies.fixedDelayRestart({attempts}, Time.milliseconds({}))))",
                        self.w().restart_fixed_delay,
                        self.ms(*delay_ms)
                    ),
                );
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"fixed-delay\");",
                );
                c.line(
                    2,
                    &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, {attempts});"),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, {});",
                        d(self.ms(*delay_ms))
                    ),
                );
            }
            Some(RestartConfig::FailureRate {
                max_failures,
                interval_ms,
                delay_ms,
            }) => {
                c.comment(
                    2,
                    &format!(
                        "{} (1.x: env.setRestartStrategy(RestartStrategies.failureRateRestart({max_failures}, Time.milliseconds({}), Time.milliseconds({}))))",
                        self.w().restart_failure_rate,
                        self.ms(*interval_ms),
                        self.ms(*delay_ms)
                    ),
                );
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"failure-rate\");",
                );
                c.line(
                    2,
                    &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, {max_failures});"),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, {});",
                        d(self.ms(*interval_ms))
                    ),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, {});",
                        d(self.ms(*delay_ms))
                    ),
                );
            }
            Some(RestartConfig::ExponentialDelay {
                initial_ms,
                max_ms,
                multiplier,
                reset_threshold_ms,
                attempts,
            }) => {
                c.comment(2, self.w().restart_exponential_delay);
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY, \"exponential-delay\");",
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, {});",
                        d(self.ms(*initial_ms))
                    ),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, {});",
                        d(self.ms(*max_ms))
                    ),
                );
                c.line(
                    2,
                    &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, {multiplier:?});"),
                );
                c.line(
                    2,
                    &format!(
                        "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, {});",
                        d(self.ms(*reset_threshold_ms))
                    ),
                );
                c.line(
                    2,
                    "conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.0);",
                );
                if let Some(a) = attempts {
                    c.line(
                        2,
                        &format!("conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, {a});"),
                    );
                }
            }
        }
    }

    fn checkpoint_lines(&mut self, c: &mut Code, cfg: Option<&CheckpointingConfig>) {
        let Some(cfg) = cfg else {
            c.comment(2, self.w().checkpointing_off);
            return;
        };
        let mode = match cfg.mode {
            CheckpointingMode::ExactlyOnce => "EXACTLY_ONCE",
            CheckpointingMode::AtLeastOnce => "AT_LEAST_ONCE",
        };
        c.comment(2, self.w().checkpointing_heading);
        match cfg.interval_ms {
            Some(_) => {
                let interval = self.ms(cfg.interval_ms.unwrap_or(0));
                c.line(
                    2,
                    &format!("env.enableCheckpointing({interval}, CheckpointingMode.{mode});"),
                );
            }
            None => {
                c.comment(2, self.w().interval_null_one_day);
                c.line(
                    2,
                    &format!("env.enableCheckpointing(86400000L, CheckpointingMode.{mode});"),
                );
            }
        }
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setCheckpointTimeout({});",
                self.ms(cfg.timeout_ms)
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setMinPauseBetweenCheckpoints({});",
                self.ms(cfg.min_pause_ms)
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setMaxConcurrentCheckpoints({});",
                cfg.max_concurrent
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().setTolerableCheckpointFailureNumber({});",
                cfg.tolerable_failures
            ),
        );
        c.line(
            2,
            &format!(
                "env.getCheckpointConfig().enableUnalignedCheckpoints({});",
                cfg.unaligned
            ),
        );
        if let Some(t) = cfg.aligned_checkpoint_timeout_ms {
            c.line(
                2,
                &format!(
                    "env.getCheckpointConfig().setAlignedCheckpointTimeout(Duration.ofMillis({})); // 1.x: setAlignmentTimeout",
                    self.ms(t)
                ),
            );
        }
        let retention = match cfg.externalized {
            Externalized::None => "NO_EXTERNALIZED_CHECKPOINTS",
            Externalized::DeleteOnCancellation => "DELETE_ON_CANCELLATION",
            Externalized::RetainOnCancellation => "RETAIN_ON_CANCELLATION",
        };
        c.line(
            2,
            &format!("env.getCheckpointConfig().setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.{retention});"),
        );
        c.line(
            2,
            &format!(
                "// 1.x: env.getCheckpointConfig().enableExternalizedCheckpoints(CheckpointConfig.ExternalizedCheckpointCleanup.{retention})"
            ),
        );
        if cfg.externalized == Externalized::RetainOnCancellation {
            // A checkpoint retained on cancel is only useful once a job starts from it.
            c.comment(2, self.w().restore_by_hand);
            c.comment(2, self.w().restore_claim_mode);
        }
    }

    /// The job graph: one statement per operator, in an order where inputs come first.
    fn graph_lines(&mut self, c: &mut Code, s: &Scenario) {
        c.comment(2, self.w().job_graph);
        let ops = &s.job.operators;
        let mut vars: BTreeMap<&str, String> = BTreeMap::new();
        let mut used = BTreeSet::new();
        for o in ops {
            let mut v = java::variable_name(&o.uid);
            while java::RESERVED.contains(&v.as_str())
                || java::CLASSES.contains(&v.as_str())
                || !used.insert(v.clone())
            {
                v.push_str("Stream");
            }
            vars.insert(&o.uid, v);
        }
        // Kahn's order, ties by document order.
        let mut done: BTreeSet<&str> = BTreeSet::new();
        let mut order = Vec::new();
        while order.len() < ops.len() {
            let next = ops.iter().find(|o| {
                !done.contains(o.uid.as_str())
                    && s.job
                        .incoming_edges(&o.uid)
                        .all(|(_, e)| done.contains(e.from.as_str()))
            });
            let Some(next) = next else { break };
            done.insert(&next.uid);
            order.push(next);
        }
        let mut seed_rng = ChaCha8Rng::seed_from_u64(self.chain.last().expect("chain").seed);
        // Materialize every source in document order (the lab draws them so).
        let mut logs: BTreeMap<&str, Vec<Vec<crate::scenario::RecordSpec>>> = BTreeMap::new();
        for o in ops.iter().filter(|o| o.is_source()) {
            logs.insert(
                &o.uid,
                o.partitions()
                    .iter()
                    .map(|p| p.materialize(&mut seed_rng))
                    .collect(),
            );
        }
        for o in order {
            let v = &vars[o.uid.as_str()];
            let tail = format!(
                ".name({uid}).uid({uid}).setParallelism({p})",
                uid = java::string(&o.uid),
                p = o.parallelism
            );
            if let Some(n) = &o.name {
                c.comment(2, &format!("{}: {n}", o.uid));
            }
            if o.is_source() {
                let parts = self.partitions_java(o, &logs[o.uid.as_str()]);
                let union = o.offsets_state == ListStateMode::Union;
                c.line(
                    2,
                    &format!(
                        "DataStream<Event> {v} = env.addSource(new ReplayableSource({}, {union}, {},{parts}))",
                        java::string(&o.uid),
                        self.ms(o.emit_interval_ms())
                    ),
                );
                c.line(4, &format!("{tail};"));
                continue;
            }
            let inputs: Vec<_> = s
                .job
                .incoming_edges(&o.uid)
                .map(|(_, e)| (e, e.resolved_partitioning(&s.job)))
                .collect();
            let part = |from: &str, p: Partitioning| -> String {
                let v = &vars[from];
                match p {
                    Partitioning::Forward => format!("{v}.forward()"),
                    Partitioning::Rebalance => format!("{v}.rebalance()"),
                    Partitioning::Broadcast => format!("{v}.broadcast()"),
                    Partitioning::Hash => format!("{v}.keyBy(e -> e.key, Types.STRING)"),
                }
            };
            let input = if o.kind == OperatorKind::BroadcastFilter {
                let rules = o.rules_from.as_deref().unwrap_or("");
                let main: Vec<String> = inputs
                    .iter()
                    .filter(|(e, _)| e.from != rules)
                    .map(|(e, p)| part(&e.from, *p))
                    .collect();
                format!(
                    "{}.connect({}.broadcast(RULES))",
                    union_of(&main),
                    vars.get(rules).map(String::as_str).unwrap_or("rules")
                )
            } else if inputs.len() > 1 && inputs.iter().all(|(_, p)| *p == Partitioning::Hash) {
                let streams: Vec<String> = inputs
                    .iter()
                    .map(|(e, _)| vars[e.from.as_str()].clone())
                    .collect();
                format!("{}.keyBy(e -> e.key, Types.STRING)", union_of(&streams))
            } else {
                let streams: Vec<String> = inputs.iter().map(|(e, p)| part(&e.from, *p)).collect();
                union_of(&streams)
            };
            let rocksdb = s.checkpoint_config().backend == BackendKind::Rocksdb;
            let (call, class) = self.operator_call(o, rocksdb);
            if o.is_sink() {
                c.line(2, &input);
                c.line(4, &format!("{call}{tail};"));
            } else {
                c.line(2, &format!("DataStream<Event> {v} = {input}"));
                c.line(4, &format!("{call}{tail};"));
            }
            if let Some(class) = class {
                self.fragments.insert(class);
            }
        }
        if let Some(cfg) = &s.checkpointing {
            if cfg.storage == StorageKind::Jobmanager {
                c.line(0, "");
                c.line(2, "StreamGraph graph = env.getStreamGraph();");
                c.line(
                    2,
                    &format!(
                        "graph.setCheckpointStorage(new JobManagerCheckpointStorage({})); // {}",
                        cfg.max_state_bytes,
                        self.w().bytes_per_state
                    ),
                );
            }
        }
    }

    /// The call that adds operator `o` (`.map(new ParityKey())`) and its function
    /// class; `rocksdb`: the job's state backend is RocksDB.
    fn operator_call(&mut self, o: &OperatorSpec, rocksdb: bool) -> (String, Option<&'static str>) {
        let ttl = |g: &mut Generator, t: &Option<TtlConfig>| -> String {
            match t {
                None => "null".into(),
                Some(t) => g.ttl_java(t, rocksdb),
            }
        };
        match o.kind {
            OperatorKind::Map => {
                let class = match o.r#fn {
                    Some(FnName::Double) => "Doubled",
                    Some(FnName::ParityKey) => "ParityKey",
                    _ => "Identity",
                };
                (format!(".map(new {class}())"), Some(class))
            }
            OperatorKind::Filter => {
                let class = if o.r#fn == Some(FnName::Odd) {
                    "KeepOdd"
                } else {
                    "KeepEven"
                };
                (format!(".filter(new {class}())"), Some(class))
            }
            OperatorKind::KeyedCount => (".process(new KeyedCount())".into(), Some("KeyedCount")),
            OperatorKind::KeyedSum => (".process(new KeyedSum())".into(), Some("KeyedSum")),
            OperatorKind::KeyedReduce => {
                let f = o.reduce.map(|r| r.as_str()).unwrap_or("sum");
                let t = ttl(self, &o.ttl);
                (
                    format!(".process(new KeyedReduce({}, {t}))", java::string(f)),
                    Some("KeyedReduce"),
                )
            }
            OperatorKind::KeyedAverage => {
                let t = ttl(self, &o.ttl);
                (
                    format!(".process(new KeyedAverage({t}))"),
                    Some("KeyedAverage"),
                )
            }
            OperatorKind::KeyedDedup => {
                let t = ttl(self, &o.ttl);
                (format!(".process(new KeyedDedup({t}))"), Some("KeyedDedup"))
            }
            OperatorKind::KeyedWindowCount => {
                let t = ttl(self, &o.ttl);
                (
                    format!(
                        ".process(new KeyedWindowCount({}, {t}))",
                        self.ms(o.window_ms.unwrap_or(1))
                    ),
                    Some("KeyedWindowCount"),
                )
            }
            OperatorKind::BroadcastFilter => {
                (".process(new RulesFilter())".into(), Some("RulesFilter"))
            }
            OperatorKind::Sink => {
                let (class, kind) = match o.sink {
                    Some(SinkKind::TwoPhaseCommit) => ("TransactionalFileSink", "two_phase_commit"),
                    Some(SinkKind::Idempotent) => ("UpsertFileSink", "idempotent"),
                    _ => ("AppendingFileSink", "at_least_once"),
                };
                (
                    format!(
                        ".addSink(new {class}(lab.topic({}, {})))",
                        java::string(&o.uid),
                        java::string(kind)
                    ),
                    Some(class),
                )
            }
            OperatorKind::Source => (String::new(), None),
        }
    }

    /// `StateTtlConfig.newBuilder(…)…build()` for a lab TTL (`rocksdb`: on RocksDB).
    fn ttl_java(&mut self, t: &TtlConfig, rocksdb: bool) -> String {
        let mut s = format!(
            "StateTtlConfig.newBuilder(Duration.ofMillis({}))",
            self.ms(t.ttl_ms)
        );
        s.push_str(match t.update_type {
            UpdateType::OnCreateAndWrite => ".updateTtlOnCreateAndWrite()",
            UpdateType::OnReadAndWrite => ".updateTtlOnReadAndWrite()",
        });
        s.push_str(match t.visibility {
            StateVisibility::NeverReturnExpired => ".neverReturnExpired()",
            StateVisibility::ReturnExpiredIfNotCleanedUp => ".returnExpiredIfNotCleanedUp()",
        });
        if t.cleanup.full_snapshot {
            s.push_str(".cleanupFullSnapshot()");
        }
        if let Some(i) = t.cleanup.incremental {
            let _ = write!(
                s,
                ".cleanupIncrementally({}, {})",
                i.cleanup_size, i.run_for_every_record
            );
        }
        if t.cleanup.in_background {
            // Flink's default: nothing to write.
            if rocksdb && t.cleanup.incremental.is_none() {
                self.approx(self.w().approx_ttl_rocksdb_background);
            }
        } else {
            // The lab's default: only the cleanup asked for.
            s.push_str(".disableCleanupInBackground()");
            self.approx(self.w().approx_ttl_background_disabled);
        }
        if rocksdb && t.cleanup.incremental.is_some() {
            self.approx(self.w().approx_ttl_rocksdb_incremental);
        }
        s.push_str(".build()");
        s
    }

    /// The partitions of a source as Java (`Partition.generated(…)` or explicit records).
    fn partitions_java(
        &self,
        o: &OperatorSpec,
        logs: &[Vec<crate::scenario::RecordSpec>],
    ) -> String {
        let mut out = String::new();
        for (spec, records) in o.partitions().iter().zip(logs) {
            out.push_str("\n                ");
            match spec {
                PartitionSpec::Generate(g) => {
                    let values = match g.values {
                        ValuesKind::Sequence => format!("Partition.sequence({})", records.len()),
                        ValuesKind::Random => format!(
                            "Partition.values(\"{}\")",
                            records
                                .iter()
                                .map(|r| r.value.to_string())
                                .collect::<Vec<_>>()
                                .join(",")
                        ),
                    };
                    let mut names: Vec<&str> = Vec::new();
                    for r in records {
                        if let Some(k) = r.key.as_deref() {
                            if !names.contains(&k) {
                                names.push(k);
                            }
                        }
                    }
                    let codes: Option<String> = records
                        .iter()
                        .map(|r| {
                            let i = names.iter().position(|n| Some(*n) == r.key.as_deref())?;
                            KEY_CODES.chars().nth(i)
                        })
                        .collect();
                    let codes = if names.is_empty() {
                        Some(String::new())
                    } else {
                        codes
                    };
                    match codes {
                        Some(codes) if names.len() <= KEY_CODES.len() => {
                            let names: Vec<String> =
                                names.iter().map(|n| java::string(n)).collect();
                            let _ = write!(
                                out,
                                "Partition.generated({}, {values}, new String[] {{{}}}, \"{codes}\")",
                                self.ms(g.every_ms),
                                names.join(", ")
                            );
                        }
                        _ => out.push_str(&explicit(records, |m| self.ms(m))),
                    }
                }
                PartitionSpec::Records(_) => out.push_str(&explicit(records, |m| self.ms(m))),
            }
            out.push(',');
        }
        out.pop();
        out
    }

    /// The lab's script for job `j`, as a `Script` for the runner.
    fn script_lines(&mut self, c: &mut Code, j: usize, s: &Scenario) {
        let plan = self.plans[j].as_ref();
        let mut calls = Vec::new();
        for p in plan.iter().flat_map(|p| &p.placed) {
            match p {
                Placed::Crash(cr) => self.approx((self.w().approx_crash)(cr)),
                Placed::Hold(h) => {
                    let kind = if h.stop {
                        "stopWithSavepoint"
                    } else {
                        "savepoint"
                    };
                    let holds: Vec<String> = h
                        .holds
                        .iter()
                        .map(|(k, v)| java::string(&format!("{k}={v}")))
                        .collect();
                    calls.push(format!(
                        ".{kind}({}, {}, {})",
                        h.at_ms,
                        h.attempt,
                        holds.join(", ")
                    ));
                    let action = if h.stop {
                        "stop_with_savepoint"
                    } else {
                        "savepoint"
                    };
                    self.approx((self.w().approx_held_savepoint)(action, h));
                }
                Placed::Timed { action, at_ms } => {
                    let call = if *action == "cancel" {
                        "cancel"
                    } else {
                        "triggerCheckpoint"
                    };
                    calls.push(format!(".{call}({at_ms})"));
                    self.approx((self.w().approx_timed)(action, *at_ms));
                }
                Placed::Unheld { action, at_ms } => {
                    let call = if *action == "savepoint" {
                        "savepoint"
                    } else {
                        "stopWithSavepoint"
                    };
                    calls.push(format!(".{call}({at_ms}, -1)"));
                    self.approx((self.w().approx_unheld_savepoint)(action, *at_ms));
                }
                Placed::Ignored {
                    action,
                    at_ms,
                    reason,
                } => self.approx((self.w().approx_ignored)(action, *at_ms, reason)),
            }
        }
        if let Some(until) = s.until_ms {
            calls.push(format!(".until({until})"));
        }
        if s.checkpointing
            .as_ref()
            .is_some_and(|c| c.interval_ms.is_none())
        {
            calls.push(".manualCheckpointsOnly()".into());
        }
        let script = if calls.is_empty() {
            "new Script()".to_string()
        } else {
            format!("new Script(){}", calls.join(""))
        };
        c.comment(2, self.w().run_script);
        let graph = s
            .checkpointing
            .as_ref()
            .is_some_and(|c| c.storage == StorageKind::Jobmanager);
        c.line(
            2,
            &format!(
                "return lab.execute({}, {}, {script});",
                if graph { "graph" } else { "env" },
                java::string(&s.name)
            ),
        );
    }
}

/// Characters naming a generated record's key by its position among the
/// partition's key names (`Partition.generated`).
const KEY_CODES: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

fn explicit(records: &[crate::scenario::RecordSpec], ms: impl Fn(u64) -> u64) -> String {
    let at: Vec<String> = records.iter().map(|r| ms(r.at_ms).to_string()).collect();
    let keys: Vec<String> = records
        .iter()
        .map(|r| java::opt_string(r.key.as_deref()))
        .collect();
    let values: Vec<String> = records.iter().map(|r| r.value.to_string()).collect();
    format!(
        "new Partition(new long[] {{{}}},\n                        new String[] {{{}}},\n                        new long[] {{{}}})",
        at.join(", "),
        keys.join(", "),
        values.join(", ")
    )
}

fn union_of(streams: &[String]) -> String {
    match streams {
        [] => "null".into(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first}.union({})", rest.join(", ")),
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
