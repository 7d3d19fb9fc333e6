//! Real checkpoint statistics beside the lab's: import a file saved by
//! `flink.sh --stats` or JSON pasted from a Flink job's REST API
//! ([`crate::flink_stats::parse`]), then the two histories side by side as
//! cards like the coordinator tab's (id, status, acknowledged, trigger time,
//! end-to-end duration, checkpointed size, processed and persisted in-flight
//! data), each with its phases per subtask drawn as a Gantt
//! ([`phase_timeline`](crate::components::phase_timeline)) and its operators'
//! subtasks (alignment, start delay, sync and async parts) behind disclosures. A value a side does not report is "—";
//! what cannot be read is a message naming the JSON path.

use std::rc::Rc;

use engine::view::phases::checkpoint_phases_at;
use engine::view::CheckpointStatus;
use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::components::coordinator_panel::bytes;
use crate::components::phase_timeline::{phase_timeline, Gantt};
use crate::flink_stats::{
    self, Amount, History, Kind, Origin, Problem, RealStats, Row, StatsError, Status, TaskRow,
};
use crate::hooks::use_lang;
use crate::i18n::flink::FlinkMsg;
use crate::i18n::{Lang, Msg};
use crate::labels;

/// Where an import came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A chosen file, by name.
    File(String),
    /// The paste box.
    Pasted,
}

impl Source {
    fn describe(&self, lang: Lang) -> String {
        match self {
            Source::File(name) => lang.t(FlinkMsg::RealSourceFile).replace("{file}", name),
            Source::Pasted => lang.t(FlinkMsg::RealPasted).to_string(),
        }
    }
}

/// Real statistics read in, and where from.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub source: Source,
    pub stats: RealStats,
}

/// Properties of [`RealStatsSection`].
#[derive(Properties)]
pub struct RealStatsProps {
    pub job: Option<Rc<JobView>>,
    pub view: Option<Rc<WorldView>>,
    /// The lesson of the run, for the lab pane's subtitle.
    #[prop_or_default]
    pub scenario: AttrValue,
    /// Its checkpointing mode, in words.
    #[prop_or_default]
    pub mode: AttrValue,
    pub imported: Option<Rc<Imported>>,
    pub on_import: Callback<Option<Rc<Imported>>>,
}

/// Equal when what the section draws is: the coordinator's history (the view
/// changes on every frame while playing, the history rarely), the import, the words.
impl PartialEq for RealStatsProps {
    fn eq(&self, other: &Self) -> bool {
        let same_rc = |a: &Option<Rc<Imported>>, b: &Option<Rc<Imported>>| match (a, b) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.job == other.job
            && match (&self.view, &other.view) {
                (Some(a), Some(b)) => {
                    Rc::ptr_eq(a, b)
                        || (a.coordinator == b.coordinator
                            // A pending checkpoint's phases grow with the clock.
                            && (a.coordinator.pending.is_empty()
                                || (a.now == b.now && a.tasks == b.tasks)))
                }
                (None, None) => true,
                _ => false,
            }
            && self.scenario == other.scenario
            && self.mode == other.mode
            && same_rc(&self.imported, &other.imported)
            && self.on_import == other.on_import
    }
}

const MISSING: &str = "—";

fn kind_word(lang: Lang, k: Kind) -> &'static str {
    lang.t(match k {
        Kind::Null => FlinkMsg::KindNull,
        Kind::Bool => FlinkMsg::KindBool,
        Kind::Number => FlinkMsg::KindNumber,
        Kind::WholeNumber => FlinkMsg::KindWhole,
        Kind::String => FlinkMsg::KindString,
        Kind::Array => FlinkMsg::KindArray,
        Kind::Object => FlinkMsg::KindObject,
    })
}

/// One problem of an import in `lang`, naming its JSON path.
pub fn describe_error(lang: Lang, e: &StatsError) -> String {
    match &e.problem {
        Problem::Syntax {
            line,
            column,
            detail,
        } => lang
            .t(FlinkMsg::ErrSyntax)
            .replace("{line}", &line.to_string())
            .replace("{column}", &column.to_string())
            .replace("{detail}", detail),
        Problem::Type { expected, found } => lang
            .t(FlinkMsg::ErrType)
            .replace("{path}", &e.path)
            .replace("{expected}", kind_word(lang, *expected))
            .replace("{found}", kind_word(lang, *found)),
        Problem::Missing => lang.t(FlinkMsg::ErrMissing).replace("{path}", &e.path),
        Problem::Unrecognised => lang.t(FlinkMsg::ErrUnrecognised).replace("{path}", &e.path),
        Problem::Format(found) => lang
            .t(FlinkMsg::ErrFormat)
            .replace("{path}", &e.path)
            .replace("{found}", &format!("{found:?}"))
            .replace("{expected}", &format!("{:?}", flink_stats::FILE_FORMAT)),
        Problem::NoHistory => lang.t(FlinkMsg::ErrNoHistory).to_string(),
    }
}

fn ms(v: Option<u64>) -> String {
    v.map_or_else(|| MISSING.to_string(), |v| format!("{v} ms"))
}

fn amount(lang: Lang, v: Option<Amount>) -> String {
    match v {
        None => MISSING.to_string(),
        Some(Amount::Bytes(b)) => bytes(b),
        Some(Amount::Records(n)) => lang.t(FlinkMsg::Records).replace("{n}", &n.to_string()),
    }
}

fn flag(lang: Lang, v: Option<bool>) -> String {
    v.map_or_else(
        || MISSING.to_string(),
        |b| {
            lang.t(if b { FlinkMsg::Yes } else { FlinkMsg::No })
                .to_string()
        },
    )
}

/// The status's class, word and glyph, as the coordinator tab draws the lab's.
fn status(lang: Lang, s: &Option<Status>) -> (&'static str, String, &'static str) {
    let of = |c| {
        let (class, word, glyph) = labels::checkpoint_status(lang, c);
        (class, word.to_string(), glyph)
    };
    match s {
        None => ("status", MISSING.to_string(), ""),
        Some(Status::InProgress) => of(CheckpointStatus::InProgress),
        Some(Status::Completed) => of(CheckpointStatus::Completed),
        Some(Status::Failed) => (
            "status status--aborted",
            lang.t(FlinkMsg::StatusFailed).to_string(),
            "✕",
        ),
        Some(Status::Other(word)) => ("status", word.clone(), ""),
    }
}

/// The largest alignment over a checkpoint's subtasks (Flink's web UI shows the
/// maximum in its summary).
fn max_alignment(row: &Row) -> Option<u64> {
    row.tasks
        .iter()
        .flat_map(|t| &t.subtasks)
        .filter_map(|s| s.alignment_ms)
        .max()
}

fn task_table(lang: Lang, t: &TaskRow) -> Html {
    let acked = lang
        .t(FlinkMsg::TaskAcked)
        .replace("{name}", &t.name)
        .replace(
            "{x}",
            &t.acknowledged.map_or(MISSING.into(), |n| n.to_string()),
        )
        .replace("{y}", &t.of.map_or(MISSING.into(), |n| n.to_string()));
    html! {
        <div class="real-task">
            <h5 class="real-task__name">{ acked }</h5>
            if t.subtasks.is_empty() {
                <p class="muted">{ lang.t(FlinkMsg::NoDetails) }</p>
            } else {
                // One card per subtask, its figures in a grid that reflows to the
                // pane's width (a narrow drawer has no room for eleven columns).
                <ol class="real-subtasks">
                    { for t.subtasks.iter().map(|s| {
                        let field = |label: &str, value: String| html! {
                            <div class="hist__field"><dt>{ label.to_string() }</dt><dd>{ value }</dd></div>
                        };
                        html! {
                            <li class="real-subtask" data-subtask={s.index.to_string()}>
                                <div class="real-subtask__head">
                                    <strong>{ format!("{} {}", lang.t(FlinkMsg::ColSubtask), s.index) }</strong>
                                    <span>{ if s.acknowledged {
                                        format!("✓ {}", lang.t(Msg::ColAcked))
                                    } else {
                                        format!("{}: {}", lang.t(Msg::ColAcked), flag(lang, Some(false)))
                                    } }</span>
                                </div>
                                <dl class="hist__fields">
                                    { field(lang.t(Msg::ColDuration), ms(s.end_to_end_ms)) }
                                    { field(lang.t(FlinkMsg::ColSize), s.checkpointed_bytes.map_or(MISSING.into(), bytes)) }
                                    { field(lang.t(Msg::ColAlignment), ms(s.alignment_ms)) }
                                    { field(lang.t(FlinkMsg::ColStartDelay), ms(s.start_delay_ms)) }
                                    { field(lang.t(FlinkMsg::ColSync), ms(s.sync_ms)) }
                                    { field(lang.t(FlinkMsg::ColAsync), ms(s.async_ms)) }
                                    { field(lang.t(FlinkMsg::ColProcessed), amount(lang, s.processed)) }
                                    { field(lang.t(FlinkMsg::ColPersisted), amount(lang, s.persisted)) }
                                    { field(lang.t(FlinkMsg::ColUnaligned), flag(lang, s.unaligned)) }
                                </dl>
                            </li>
                        }
                    }) }
                </ol>
            }
        </div>
    }
}

/// One checkpoint's card; `phases` is its Gantt (the lab's from the engine's
/// view, Flink's from the imported durations).
fn row_card(lang: Lang, side: &'static str, r: &Row, phases: Option<Gantt>) -> Html {
    let (class, word, glyph) = status(lang, &r.status);
    let id = if r.savepoint {
        format!("#{} ({})", r.id, lang.t(Msg::KindSavepoint))
    } else {
        format!("#{}", r.id)
    };
    let acked = format!(
        "{}/{}",
        r.acknowledged.map_or(MISSING.into(), |n| n.to_string()),
        r.subtasks.map_or(MISSING.into(), |n| n.to_string())
    );
    let field = |label: &str, value: String| {
        html! {
            <div class="hist__field"><dt>{ label.to_string() }</dt><dd>{ value }</dd></div>
        }
    };
    html! {
        <li class="hist real-row" key={r.id} data-side={side} data-checkpoint={r.id.to_string()}>
            <div class="hist__head">
                <strong class="hist__id" title={lang.t(Msg::ColId)}>{ id }</strong>
                <span class={class} title={lang.t(Msg::ColStatus)}>{ glyph }{ " " }{ word }</span>
                <span class="hist__acked" title={lang.t(Msg::ColAcked)}>{ acked }</span>
            </div>
            <dl class="hist__fields">
                { field(lang.t(Msg::ColTrigger), r.trigger_ms.map_or(MISSING.into(), |t| format!("{t} ms"))) }
                { field(lang.t(Msg::ColDuration), ms(r.end_to_end_ms)) }
                { field(lang.t(FlinkMsg::ColSize), r.checkpointed_bytes.map_or(MISSING.into(), bytes)) }
                { field(lang.t(Msg::ColAlignment), ms(max_alignment(r))) }
                { field(lang.t(FlinkMsg::ColProcessed), amount(lang, r.processed)) }
                { field(lang.t(FlinkMsg::ColPersisted), amount(lang, r.persisted)) }
                { field(lang.t(FlinkMsg::ColUnaligned), flag(lang, r.unaligned)) }
            </dl>
            if let Some(f) = &r.failure {
                <p class="hist__reason">{ lang.t(FlinkMsg::Failure) }{ " " }{ f.clone() }</p>
            }
            if let Some(g) = phases.filter(|g| !g.rows.is_empty()) {
                <details class="timeline-details phases-details">
                    <summary>{ lang.t(Msg::PhasesOpen) }</summary>
                    { phase_timeline(lang, &g, None) }
                </details>
            }
            if !r.tasks.is_empty() {
                <details class="timeline-details">
                    <summary>{ lang.t(Msg::SubtaskTimeline) }</summary>
                    { for r.tasks.iter().map(|t| task_table(lang, t)) }
                </details>
            }
        </li>
    }
}

/// A history's cards; `phases` draws a row's Gantt.
fn history_list(
    lang: Lang,
    side: &'static str,
    h: &History,
    phases: &dyn Fn(&Row) -> Option<Gantt>,
) -> Html {
    html! {
        <>
            <p class="real-pane__note">{ lang.t(match h.origin {
                Origin::JobStart => FlinkMsg::OriginStart,
                Origin::FirstTrigger => FlinkMsg::OriginFirst,
            }) }</p>
            if h.rows.is_empty() {
                <p class="muted">{ lang.t(Msg::NoCheckpoints) }</p>
            } else {
                <ol class="history">{ for h.rows.iter().map(|r| row_card(lang, side, r, phases(r))) }</ol>
            }
        </>
    }
}

/// What the last import attempt said.
#[derive(Clone, PartialEq)]
enum Outcome {
    None,
    Imported,
    Failed(Source, Vec<StatsError>),
}

/// Real checkpoint statistics beside the lab's own history; see the module
/// documentation.
#[component]
pub fn RealStatsSection(props: &RealStatsProps) -> Html {
    let lang = use_lang().lang;
    let outcome = use_state(|| Outcome::None);
    let paste_ref = use_node_ref();
    let read = import_reader(props.on_import.clone(), outcome.clone());
    let on_file = {
        let read = read.clone();
        Callback::from(move |e: Event| {
            let read = read.clone();
            crate::document::read_chosen_file(
                &e,
                Callback::from(move |(name, text): (String, Result<String, _>)| {
                    read.emit((
                        Source::File(name),
                        text.map_err(|e: crate::document::NotText| e.to_string()),
                    ))
                }),
            );
        })
    };
    let on_paste = {
        let (read, paste_ref) = (read.clone(), paste_ref.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = paste_ref.cast::<web_sys::HtmlTextAreaElement>() {
                read.emit((Source::Pasted, Ok(area.value())));
            }
        })
    };
    let on_clear = {
        let (on_import, outcome) = (props.on_import.clone(), outcome.clone());
        Callback::from(move |_: MouseEvent| {
            outcome.set(Outcome::None);
            on_import.emit(None);
        })
    };
    let message = outcome_message(&outcome, props.imported.as_deref(), lang);
    let lab = lab_pane(props, lang);
    let real = real_pane(props.imported.as_deref(), lang);
    html! {
        <section class="real" id="real-stats" aria-labelledby="real-heading">
            <h3 class="section-title" id="real-heading">{ lang.t(FlinkMsg::RealHeading) }</h3>
            <div class="real__controls">
                <label class="text-button real__file">
                    { lang.t(FlinkMsg::RealFile) }
                    <input type="file" id="real-file" class="visually-hidden" accept=".json,application/json" onchange={on_file} />
                </label>
                if props.imported.is_some() {
                    <button type="button" class="text-button" id="real-clear" onclick={on_clear}>{ lang.t(FlinkMsg::RealClear) }</button>
                }
            </div>
            <details class="real__paste-box" id="real-paste-box">
                <summary>{ lang.t(FlinkMsg::RealPasteLabel) }</summary>
                <p class="flink__note">{ lang.t(FlinkMsg::RealIntro) }</p>
                <label class="visually-hidden" for="real-paste">{ lang.t(FlinkMsg::RealPasteLabel) }</label>
                <textarea id="real-paste" class="real__paste" rows="4" spellcheck="false" ref={paste_ref} />
                <button type="button" class="text-button" id="real-paste-import" onclick={on_paste}>{ lang.t(FlinkMsg::RealPasteButton) }</button>
            </details>
            { message }
            <div class="real__panes">
                <div class="real-pane real-pane--lab" id="real-lab">
                    <h4 class="real-pane__title">{ lang.t(FlinkMsg::LabPane) }</h4>
                    { lab }
                </div>
                <div class="real-pane real-pane--real" id="real-real">
                    { real }
                </div>
            </div>
        </section>
    }
}

/// Reads an imported text (a file's or a paste's) as Flink's checkpoint
/// statistics: hands them to `on_import`, or keeps why they could not be read.
fn import_reader(
    on_import: Callback<Option<Rc<Imported>>>,
    outcome: UseStateHandle<Outcome>,
) -> Callback<(Source, Result<String, String>)> {
    Callback::from(move |(source, text): (Source, Result<String, String>)| {
        let text = match text {
            Ok(t) => t,
            Err(why) => {
                // The browser could not read the file: say so as a syntax problem at `$`.
                outcome.set(Outcome::Failed(
                    source,
                    vec![StatsError {
                        path: "$".into(),
                        problem: Problem::Syntax {
                            line: 0,
                            column: 0,
                            detail: why,
                        },
                    }],
                ));
                return;
            }
        };
        match flink_stats::parse(&text) {
            Ok(stats) => {
                outcome.set(Outcome::Imported);
                on_import.emit(Some(Rc::new(Imported { source, stats })));
            }
            Err(errors) => outcome.set(Outcome::Failed(source, errors)),
        }
    })
}

/// What the last import said: how many checkpoints came from where, or the
/// first problems found.
fn outcome_message(outcome: &Outcome, imported: Option<&Imported>, lang: Lang) -> Html {
    match outcome {
        Outcome::None => Html::default(),
        Outcome::Imported => match imported {
            Some(i) => {
                let n: usize = i.stats.jobs.iter().map(|j| j.history.rows.len()).sum();
                html! {
                    <p class="real__message real__message--ok" role="status" id="real-message">
                        { lang.t(FlinkMsg::RealImported).replace("{n}", &n.to_string()).replace("{source}", &i.source.describe(lang)) }
                    </p>
                }
            }
            None => Html::default(),
        },
        Outcome::Failed(source, errors) => {
            let source = source.describe(lang);
            const SHOWN: usize = 6;
            html! {
                <div class="real__message real__message--error" role="alert" id="real-message">
                    <p>{ lang.t(FlinkMsg::RealError).replace("{source}", &source) }</p>
                    <ul>
                        { for errors.iter().take(SHOWN).map(|e| html! { <li><code>{ describe_error(lang, e) }</code></li> }) }
                    </ul>
                    if errors.len() > SHOWN {
                        <p>{ lang.t(FlinkMsg::RealMoreErrors).replace("{n}", &(errors.len() - SHOWN).to_string()) }</p>
                    }
                </div>
            }
        }
    }
}

/// The lab's own checkpoint history, in Flink's rows.
fn lab_pane(props: &RealStatsProps, lang: Lang) -> Html {
    match (&props.job, &props.view) {
        (Some(job), Some(view)) => {
            let h = flink_stats::lab_history(job, &view.coordinator.history);
            let sub = lang
                .t(FlinkMsg::LabPaneSub)
                .replace("{scenario}", &props.scenario)
                .replace("{mode}", &props.mode);
            html! {
                <>
                    <p class="real-pane__sub">{ sub }</p>
                    { history_list(lang, "lab", &h, &|r: &Row| {
                        view.coordinator.history.iter().find(|c| c.id.0 == r.id).map(|c| {
                            Gantt::of_lab(&checkpoint_phases_at(c, job, &view.tasks, view.now))
                        })
                    }) }
                    <p class="real-pane__note">{ lang.t(FlinkMsg::LabMissing) }</p>
                </>
            }
        }
        _ => html! { <p class="muted">{ lang.t(FlinkMsg::Empty) }</p> },
    }
}

/// The imported statistics, job by job.
fn real_pane(imported: Option<&Imported>, lang: Lang) -> Html {
    match imported {
        None => html! {
            <>
                <h4 class="real-pane__title">{ lang.t(FlinkMsg::RealPane).replace("{version}", "") }</h4>
                <p class="muted">{ lang.t(FlinkMsg::RealPaneNone) }</p>
            </>
        },
        Some(i) => {
            let version = i.stats.flink_version.clone().unwrap_or_default();
            html! {
                <>
                    <h4 class="real-pane__title">{ lang.t(FlinkMsg::RealPane).replace("{version}", &version) }</h4>
                    if let Some(scale) = i.stats.time_scale {
                        <p class="real-pane__sub">{ lang.t(FlinkMsg::RealTimeScale).replace("{scale}", &scale.to_string()) }</p>
                    }
                    { for i.stats.jobs.iter().map(|j| {
                        let count = |k: &str| j.counts.iter().find(|(n, _)| n == k).map_or(MISSING.to_string(), |(_, v)| v.to_string());
                        let job_name = j.name.clone().or_else(|| j.id.clone()).unwrap_or_else(|| MISSING.into());
                        html! {
                            <section class="real-job">
                                <p class="real-pane__sub">{ lang.t(FlinkMsg::RealJobSub).replace("{job}", &job_name).replace("{source}", &i.source.describe(lang)) }</p>
                                if !j.counts.is_empty() {
                                    <p class="real-pane__sub">{ lang.t(FlinkMsg::Counts)
                                        .replace("{total}", &count("total"))
                                        .replace("{completed}", &count("completed"))
                                        .replace("{failed}", &count("failed")) }</p>
                                }
                                if !j.config.is_empty() {
                                    <details class="real-config">
                                        <summary>{ lang.t(FlinkMsg::Config) }</summary>
                                        <dl>{ for j.config.iter().map(|(k, v)| html! {
                                            <div class="hist__field"><dt>{ k.clone() }</dt><dd>{ v.clone() }</dd></div>
                                        }) }</dl>
                                    </details>
                                }
                                { history_list(lang, "real", &j.history, &|r: &Row| Some(Gantt::of_real(r))) }
                            </section>
                        }
                    }) }
                    <p class="real-pane__note">{ lang.t(FlinkMsg::Missing) }</p>
                </>
            }
        }
    }
}
