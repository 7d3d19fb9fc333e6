//! The Flink code tab: the run on stage as a Flink 2.3 Java job, written by the
//! engine's exporter ([`crate::flink_code`]) — its `CheckpointConfig` lines
//! first (as the study notes write them), then the job methods with line
//! numbers, the whole file behind a disclosure; copy and download; the command
//! that runs it on real Flink; and, below, the real checkpoint statistics
//! beside the lab's history ([`RealStatsSection`]).
//!
//! The tab widens the drawer (`side-panel--wide`) so the code keeps its lines
//! at a projector's size.

use std::rc::Rc;

use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::components::real_stats_panel::{Imported, RealStatsSection};
use crate::flink_code::{self, LineKind};
use crate::hooks::use_lang;
use crate::i18n::flink::FlinkMsg;

/// Properties of [`FlinkPanel`].
#[derive(Properties, PartialEq)]
pub struct FlinkPanelProps {
    /// The scenario document being run (editor's edits and mode included).
    pub doc: Option<Rc<serde_json::Value>>,
    /// The run's seed.
    pub seed: u64,
    /// The run's job graph and world (for the lab's side of the statistics).
    pub job: Option<Rc<JobView>>,
    pub view: Option<Rc<WorldView>>,
    /// The lesson on stage and its checkpointing mode in words (the lab pane's subtitle).
    #[prop_or_default]
    pub scenario: AttrValue,
    #[prop_or_default]
    pub mode: AttrValue,
    /// The imported real statistics (kept by the side panel across tab switches).
    pub imported: Option<Rc<Imported>>,
    pub on_import: Callback<Option<Rc<Imported>>>,
}

/// `lines` (1-based from `first`) as a code block, the `CheckpointConfig` lines
/// marked; `numbers` adds a gutter.
fn code_block(lines: &[&str], first: usize, numbers: bool) -> Html {
    html! {
        <code>
            { for lines.iter().enumerate().map(|(i, l)| {
                let class = match flink_code::line_kind(l) {
                    LineKind::Checkpointing => "java__line java__line--checkpointing",
                    LineKind::Comment => "java__line java__line--comment",
                    LineKind::Code => "java__line",
                };
                html! {
                    <span {class}>
                        if numbers {
                            <span class="java__no" aria-hidden="true">{ first + i }</span>
                        }
                        { format!("{l}\n") }
                    </span>
                }
            }) }
        </code>
    }
}

/// What the copy button last reported.
#[derive(Clone, Copy, PartialEq)]
enum Copied {
    Not,
    Ok,
    Failed,
}

/// Properties of [`FlinkCode`]: the run's document and seed.
#[derive(Properties)]
pub struct FlinkCodeProps {
    pub doc: Option<Rc<serde_json::Value>>,
    pub seed: u64,
}

/// The same run: the same document (by pointer: a new run has a new one) and seed,
/// so playing (a new view every frame) does not rebuild the Java's DOM.
impl PartialEq for FlinkCodeProps {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
            && match (&self.doc, &other.doc) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

#[component]
pub fn FlinkPanel(props: &FlinkPanelProps) -> Html {
    html! {
        <div class="flink">
            <FlinkCode doc={props.doc.clone()} seed={props.seed} />
            <RealStatsSection job={props.job.clone()} view={props.view.clone()}
                              scenario={props.scenario.clone()} mode={props.mode.clone()}
                              imported={props.imported.clone()} on_import={props.on_import.clone()} />
        </div>
    }
}

/// The Java of the run, once the exporter's Java fragments are here: fetched
/// when the tab first opens (the page ships without them, `crate::data`); a
/// failure names the file.
#[component]
pub fn FlinkCode(props: &FlinkCodeProps) -> Html {
    let lang = use_lang().lang;
    // `Ok(true)` once the fragments are here; `Err` says which file failed.
    let java = use_state_eq(|| {
        Ok::<bool, String>(
            crate::data::java_files()
                .iter()
                .all(|f| crate::data::available(f)),
        )
    });
    {
        let java = java.clone();
        use_effect_with((), move |_| {
            if *java == Ok(false) {
                wasm_bindgen_futures::spawn_local(async move {
                    java.set(
                        crate::data::ensure(crate::data::java_files())
                            .await
                            .map(|()| true)
                            .map_err(|e| crate::data::failure(&e)),
                    );
                });
            }
        });
    }
    match &*java {
        Ok(true) => html! { <FlinkExport doc={props.doc.clone()} seed={props.seed} /> },
        Ok(false) => html! { <p class="muted" role="status">{ lang.t(FlinkMsg::Loading) }</p> },
        Err(e) => html! {
            <div class="flink__refused" role="status">
                <p class="flink__refused-detail">{ e.clone() }</p>
            </div>
        },
    }
}

/// The Java of the run, its highlighted lines, copy, download and the command.
#[component]
fn FlinkExport(props: &FlinkCodeProps) -> Html {
    let lang = use_lang().lang;
    let copied = use_state_eq(|| Copied::Not);
    // The export runs the lab once (to place the script's crashes): once per
    // run, seed and language, not per frame.
    let key = (
        props.doc.as_ref().map_or(0, |d| Rc::as_ptr(d) as usize),
        props.seed,
        lang,
    );
    let export = {
        let doc = props.doc.clone();
        use_memo(key, move |(_, seed, lang)| {
            doc.map(|d| flink_code::export_for(&d, *seed, *lang).map_err(|e| e.to_string()))
        })
    };
    {
        let copied = copied.clone();
        use_effect_with(key, move |_| copied.set(Copied::Not));
    }
    let export = match &*export {
        None => return html! { <p class="muted">{ lang.t(FlinkMsg::Empty) }</p> },
        Some(Err(e)) => {
            return html! {
                <div class="flink__refused" role="status">
                    <p>{ lang.t(FlinkMsg::Refused) }</p>
                    <p class="flink__refused-detail">{ e.clone() }</p>
                </div>
            }
        }
        Some(Ok(export)) => export,
    };
    let java = export.java.clone();
    let file = export.file_name.clone();
    let lines: Vec<&str> = export.java.lines().collect();
    let on_copy = {
        let (java, copied) = (java.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            crate::document::copy_text(
                &java,
                Callback::from(move |ok: bool| {
                    copied.set(if ok { Copied::Ok } else { Copied::Failed })
                }),
            );
        })
    };
    let on_download = {
        let (java, file) = (java.clone(), file.clone());
        Callback::from(move |_: MouseEvent| {
            let _ = crate::document::download(&file, &java, "text/x-java-source;charset=utf-8");
        })
    };
    let commands = flink_code::commands(export);
    let checkpointing = flink_code::checkpointing_lines(&export.java);
    let methods = flink_code::job_methods(&export.java);
    let label = |m: FlinkMsg| lang.t(m).replace("{file}", &file);
    html! {
        <div class="flink__code" data-file={file.clone()}>
            <p class="flink__kind">{ lang.t(FlinkMsg::Kind).replace("{version}", flink_code::FLINK_VERSION) }</p>
            <p class="flink__intro">{ lang.t(FlinkMsg::Intro) }</p>
            <div class="flink__actions">
                <button type="button" class="text-button" id="flink-copy"
                        aria-label={label(FlinkMsg::CopyLabel)} onclick={on_copy}>
                    { lang.t(FlinkMsg::Copy) }
                </button>
                <button type="button" class="text-button" id="flink-download"
                        aria-label={label(FlinkMsg::DownloadLabel)} onclick={on_download}>
                    { format!("{} {file}", lang.t(FlinkMsg::Download)) }
                </button>
                <span class="flink__copied" role="status">{ match *copied {
                    Copied::Not => "",
                    Copied::Ok => lang.t(FlinkMsg::Copied),
                    Copied::Failed => lang.t(FlinkMsg::CopyFailed),
                } }</span>
            </div>
            <h3 class="section-title">{ lang.t(FlinkMsg::CheckpointingHeading) }</h3>
            <pre class="java java--checkpointing" id="flink-checkpointing"
                 aria-label={lang.t(FlinkMsg::CheckpointingHeading)} tabindex="0">
                { code_block(&checkpointing, 1, false) }
            </pre>
            <h3 class="section-title">{ lang.t(FlinkMsg::RunHeading) }</h3>
            <p class="flink__note">{ lang.t(FlinkMsg::RunRepo) }</p>
            <pre class="flink__command" id="flink-command"><code>{ commands.in_repo.clone() }</code></pre>
            <details class="flink__plain">
                <summary>{ lang.t(FlinkMsg::RunPlain) }</summary>
                <pre class="flink__command"><code>{ commands.plain.join("\n") }</code></pre>
            </details>
            <p class="flink__note">{ lang.t(FlinkMsg::RunStats) }</p>
            { for methods.iter().map(|(first, body)| html! {
                <>
                    <h3 class="section-title">{ lang.t(FlinkMsg::JobHeading).replace("{line}", &first.to_string()) }</h3>
                    <pre class="java java--job" tabindex="0" aria-label={label(FlinkMsg::CodeLabel)}>
                        { code_block(body, *first, true) }
                    </pre>
                </>
            }) }
            <p class="flink__note">{ lang.t(FlinkMsg::HighlightNote) }</p>
            <p class="flink__note">{ lang.t(FlinkMsg::InterventionsNote) }</p>
            <details class="flink__whole" id="flink-whole">
                <summary>{ lang.t(FlinkMsg::Open).replace("{n}", &lines.len().to_string()) }</summary>
                <pre class="java java--whole" tabindex="0" aria-label={label(FlinkMsg::CodeLabel)}>
                    { code_block(&lines, 1, true) }
                </pre>
            </details>
            if !export.approximations.is_empty() {
                <details class="flink__approx">
                    <summary>{ lang.t(FlinkMsg::ApproxHeading) }</summary>
                    <ul>{ for export.approximations.iter().map(|a| html! { <li>{ a.clone() }</li> }) }</ul>
                </details>
            }
        </div>
    }
}
