//! The barrier-bench tab: a learner types an arrival sequence for one task's input
//! channels (or picks an example), and steps line by line through what the
//! handler does — which channels block, which records wait or are processed, when
//! the snapshot is taken and what channel state an unaligned one persists. The
//! engine runs it ([`crate::barrier_bench`]); the tab only draws the result.

use engine::bench::BenchLine;
use engine::view::HandlerMode;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::barrier_bench::{self, BenchForm, BenchRun, EXAMPLES, MAX_CHANNELS};
use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::playback::Mode;

const MODES: [(HandlerMode, Mode, &str); 3] = [
    (HandlerMode::Aligned, Mode::Aligned, "aligned"),
    (HandlerMode::Unaligned, Mode::Unaligned, "unaligned"),
    (HandlerMode::AtLeastOnce, Mode::AtLeastOnce, "at-least-once"),
];

fn value_of(e: &Event) -> Option<String> {
    let target = e.target()?;
    if let Some(s) = target.dyn_ref::<web_sys::HtmlSelectElement>() {
        return Some(s.value());
    }
    target
        .dyn_ref::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "—".to_string()
    } else {
        items.join(" ")
    }
}

/// What a line's checkpoint column says: snapshots (with channel state) and aborts.
/// The at-least-once tracker never aligns, so its snapshot is not called aligned.
fn outcome(line: &BenchLine, mode: HandlerMode, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = line.timer_fired_at {
        out.push(lang.t(Msg::BenchTimer).replace("{t}", &t.to_string()));
    }
    for t in &line.triggered {
        let msg = if t.unaligned {
            Msg::BenchTriggeredUnaligned
        } else if mode == HandlerMode::AtLeastOnce {
            Msg::BenchTriggeredTracked
        } else {
            Msg::BenchTriggeredAligned
        };
        let mut s = lang.t(msg).replace("{id}", &t.checkpoint.to_string());
        if !t.channel_state.is_empty() {
            let state: Vec<String> = t
                .channel_state
                .iter()
                .map(|(ch, recs)| format!("#{ch} [{}]", recs.join(" ")))
                .collect();
            s = format!(
                "{s}, {}",
                lang.t(Msg::BenchChannelState)
                    .replace("{state}", &state.join(" "))
            );
        }
        out.push(s);
    }
    for a in &line.aborted {
        let reason = serde_json::to_value(a.reason)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        out.push(
            lang.t(Msg::BenchAborted)
                .replace("{id}", &a.checkpoint.to_string())
                .replace("{reason}", &reason),
        );
    }
    out
}

/// The input channels after the current line: blocked or persisting, and the
/// tokens waiting on each.
fn channels_picture(run: &BenchRun, channels: u32, line: usize, lang: Lang) -> Html {
    html! {
        <ul class="bench-channels">
            { for run.channels_after(channels, line).into_iter().map(|c| html! {
                <li class={classes!("bench-channel", c.is_blocked.then_some("bench-channel--blocked"),
                                    c.is_persisting.then_some("bench-channel--persisting"))}
                    data-channel={c.channel.to_string()}>
                    <span class="bench-channel__name">{ lang.t(Msg::BenchChannel).replace("{ch}", &c.channel.to_string()) }</span>
                    <span class="bench-channel__queue">
                        { for c.waiting.iter().map(|t| html! { <span class="bench-token">{ t.clone() }</span> }) }
                    </span>
                    if c.is_blocked {
                        <span class="bench-channel__flag">{ lang.t(Msg::BenchBlocked) }</span>
                    }
                    if c.is_persisting {
                        <span class="bench-channel__flag">{ lang.t(Msg::Persisting) }</span>
                    }
                </li>
            }) }
        </ul>
    }
}

/// The barrier bench: a handler's mode, channels and arrivals in, its run line
/// by line out; see the module documentation.
#[component]
pub fn BenchPanel() -> Html {
    let lang = use_lang().lang;
    let form = use_state_eq(BenchForm::default);
    let line = use_state_eq(|| 0usize);
    let result = use_memo((*form).clone(), barrier_bench::run);

    let update = |f: fn(&mut BenchForm, String)| {
        let form = form.clone();
        let line = line.setter();
        Callback::from(move |e: Event| {
            if let Some(v) = value_of(&e) {
                let mut next = (*form).clone();
                f(&mut next, v);
                form.set(next);
                line.set(0);
            }
        })
    };
    let on_mode = update(|f, v| {
        if let Some((m, _, _)) = MODES.iter().find(|(_, _, k)| *k == v) {
            f.mode = *m;
        }
    });
    // A number that does not parse becomes 0, which the bench reports by field name.
    let on_channels = update(|f, v| f.channels = v.trim().parse().unwrap_or(0));
    let on_timeout = update(|f, v| f.aligned_timeout_ms = v.trim().parse().unwrap_or(0));
    let on_arrivals = {
        let form = form.clone();
        let line = line.setter();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .map(|t| t.value());
            if let Some(v) = v {
                let mut next = (*form).clone();
                next.arrivals = v;
                form.set(next);
                line.set(0);
            }
        })
    };

    let examples = EXAMPLES.iter().enumerate().map(|(i, ex)| {
        let form = form.clone();
        let line = line.setter();
        let ex = *ex;
        let onclick = Callback::from(move |_: MouseEvent| {
            form.set(ex.form());
            line.set(0);
        });
        html! {
            <button type="button" class="text-button bench__example" data-example={i.to_string()} {onclick}>
                { lang.t(ex.label) }
            </button>
        }
    });

    let body = match &*result {
        Err(e) => html! { <p class="bench__error" role="alert">{ e.to_string() }</p> },
        Ok(run) => bench_run(run, (form.channels, form.mode), &line, lang),
    };

    html! {
        <div class="bench">
            <h3 class="section-title">{ lang.t(Msg::BenchHeading) }</h3>
            <p class="muted">{ lang.t(Msg::BenchIntro) }</p>
            <div class="bench__examples" role="group" aria-label={lang.t(Msg::BenchExamples)}>{ for examples }</div>
            <div class="bench__form">
                <label class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::BenchMode) }</span>
                    <select class="select" id="bench-mode" onchange={on_mode}>
                        { for MODES.iter().map(|(m, mode, key)| html! {
                            <option value={*key} selected={*m == form.mode}>{ labels::mode(lang, *mode) }</option>
                        }) }
                    </select>
                </label>
                <label class="toolbar__field">
                    <span class="toolbar__label">{ lang.t(Msg::BenchChannels) }</span>
                    <input type="number" class="bench__number" id="bench-channels" min="1" max={MAX_CHANNELS.to_string()}
                           value={form.channels.to_string()} onchange={on_channels} />
                </label>
                if form.mode == HandlerMode::Unaligned {
                    <label class="toolbar__field">
                        <span class="toolbar__label">{ lang.t(Msg::BenchTimeout) }</span>
                        <input type="number" class="bench__number" id="bench-timeout" min="0"
                               value={form.aligned_timeout_ms.to_string()} onchange={on_timeout} />
                    </label>
                }
            </div>
            <label class="bench__arrivals-label" for="bench-arrivals">{ lang.t(Msg::BenchArrivals) }</label>
            <input type="text" id="bench-arrivals" class="bench__arrivals" spellcheck="false" autocomplete="off"
                   value={form.arrivals.clone()} oninput={on_arrivals} />
            <p class="bench__syntax muted">{ lang.t(Msg::BenchSyntax) }</p>
            { body }
        </div>
    }
}

/// A bench run, line by line: the stepper, the channels' picture at the current
/// line, the table of lines (a click makes one current) and the summary.
fn bench_run(
    run: &BenchRun,
    (channels, mode): (u32, HandlerMode),
    line: &UseStateHandle<usize>,
    lang: Lang,
) -> Html {
    let n = run.output.lines.len();
    let k = (*line).min(n.saturating_sub(1));
    let step = |delta: isize| {
        let line = line.setter();
        let next = (k as isize + delta).clamp(0, n.saturating_sub(1) as isize) as usize;
        Callback::from(move |_: MouseEvent| line.set(next))
    };
    let s = &run.output.summary;
    let aborted: Vec<String> = s.aborted.iter().map(|a| a.checkpoint.to_string()).collect();
    let triggered: Vec<String> = s.triggered.iter().map(|c| c.to_string()).collect();
    html! {
        <>
            <div class="bench__stepper">
                <button type="button" class="tool-button" id="bench-prev" disabled={k == 0}
                        aria-label={lang.t(Msg::BenchPrev)} title={lang.t(Msg::BenchPrev)} onclick={step(-1)}>{ "◀" }</button>
                <output class="bench__position" id="bench-position">
                    { lang.t(Msg::BenchStep).replace("{k}", &(k + 1).to_string()).replace("{n}", &n.to_string()) }
                    { " · " }<code>{ run.output.lines[k].token.clone() }</code>
                </output>
                <button type="button" class="tool-button" id="bench-next" disabled={k + 1 >= n}
                        aria-label={lang.t(Msg::BenchNext)} title={lang.t(Msg::BenchNext)} onclick={step(1)}>{ "▶" }</button>
            </div>
            { channels_picture(run, channels, k, lang) }
            <table class="bench-lines">
                <thead>
                    <tr>
                        <th>{ "#" }</th>
                        <th>{ lang.t(Msg::BenchColToken) }</th>
                        <th>{ lang.t(Msg::BenchColProcessed) }</th>
                        <th>{ lang.t(Msg::BenchColBlocked) }</th>
                        <th>{ lang.t(Msg::BenchColOutcome) }</th>
                    </tr>
                </thead>
                <tbody>
                    { for run.output.lines.iter().enumerate().map(|(i, l)| {
                        let onclick = {
                            let line = line.setter();
                            Callback::from(move |_: MouseEvent| line.set(i))
                        };
                        let blocked: Vec<String> = l.blocked.iter().map(|c| c.to_string()).collect();
                        html! {
                            <tr class={classes!("bench-line", (i == k).then_some("bench-line--current"), (i > k).then_some("bench-line--future"))}
                                data-line={i.to_string()} {onclick}>
                                <td>{ i }</td>
                                <td><code>{ l.token.clone() }</code></td>
                                <td>{ list(&l.processed) }</td>
                                <td>{ list(&blocked) }</td>
                                <td class="bench-line__outcome">{ for outcome(l, mode, lang).into_iter().map(|o| html! { <div>{ o }</div> }) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <p class="bench__summary" id="bench-summary">
                { lang.t(Msg::BenchSummary)
                    .replace("{processed}", &list(&s.processed))
                    .replace("{triggered}", &list(&triggered))
                    .replace("{aborted}", &list(&aborted)) }
            </p>
        </>
    }
}
