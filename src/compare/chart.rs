//! The comparison charts, drawn as SVG from engine views, no
//! chart library. One row per run (its name at the left in HTML, its marks in an
//! SVG that spans the rest), so the text stays at its CSS size at every width:
//! the marks are placed in percent of the row, the text in pixels, nothing is
//! scaled. Each chart has a text alternative: a visually hidden table with every
//! figure and one summary sentence per run.
//!
//! The chart sits in the caption bar under the twin stages and is opened with
//! [`ChartToggle`]; [`CompareChart`] renders it.

use std::rc::Rc;

use engine::view::failure_counter::{failure_counter_trace, CounterStep};
use engine::view::WorldView;
use engine::{runner, World};
use yew::prelude::*;

use crate::compare::model::{self, Kind, Outcome};
use crate::hooks::use_lang;
use crate::i18n::extras::{x, xf};
use crate::i18n::Lang;

/// A run the chart compares: its label and its view now.
#[derive(Clone, PartialEq)]
pub struct ChartRun {
    /// The lesson name (or the mode, in the twin view).
    pub name: AttrValue,
    /// The scenario, to run it again for figures a view does not keep.
    pub scenario: AttrValue,
    /// The run now.
    pub view: Option<Rc<WorldView>>,
}

/// Properties of [`CompareChart`].
#[derive(Properties, PartialEq)]
pub struct CompareChartProps {
    /// Which comparison.
    pub kind: Kind,
    /// The runs on the stages, main first.
    pub runs: Vec<ChartRun>,
    /// The seed both run with.
    pub seed: u64,
}

fn pct(v: f64) -> String {
    format!("{:.2}%", v.clamp(0.0, 100.0))
}

/// The final view of `scenario` under `seed` (for the restart strategy no stage shows).
fn final_view(scenario: &str, seed: u64) -> Option<WorldView> {
    let s = runner::load(scenario).ok()?;
    let mut w = World::new(&s, seed).ok()?;
    w.set_tracing(false);
    w.run_to_end(None, runner::DEFAULT_LIMIT_MS, |_| {});
    Some(w.view())
}

/// One row: the run's name, its marks.
fn row(name: &str, key: &str, height: u32, body: Html) -> Html {
    html! {
        <div class="chart__row" data-run={key.to_string()}>
            <span class="chart__name" title={name.to_string()}>{ name.to_string() }</span>
            <svg class="chart__plot" width="100%" height={height.to_string()} aria-hidden="true">{ body }</svg>
        </div>
    }
}

/// The axis under the rows: checkpoint ids at their slots, or times (digits and
/// "ms" have no descenders, so the row is as tall as their cap height and a little).
fn axis(labels: Vec<(f64, String)>) -> Html {
    html! {
        <div class="chart__row chart__row--axis">
            <span class="chart__name"></span>
            <svg class="chart__plot" width="100%" height="14" aria-hidden="true">
                { for labels.into_iter().map(|(at, text)| html! {
                    <text class="chart__tick" x={pct(at)} y="12" text-anchor="middle">{ text }</text>
                }) }
            </svg>
        </div>
    }
}

/// Checkpoint ids under their slots (bars start at the slot's left edge).
fn slot_axis(ids: &[u64]) -> Html {
    let n = ids.len();
    html! {
        <div class="chart__row chart__row--axis">
            <span class="chart__name"></span>
            <svg class="chart__plot" width="100%" height="14" aria-hidden="true">
                { for ids.iter().enumerate().map(|(i, id)| html! {
                    <text class="chart__tick" x={pct(slot_left(i, n))} dx="4" y="12">{ format!("chk-{id}") }</text>
                }) }
            </svg>
        </div>
    }
}

/// The figures table's rows: each run's items, the run named first.
fn figures<T>(
    runs: &[(ChartRun, Rc<WorldView>)],
    items: &[&[T]],
    cells: impl Fn(&T) -> Vec<String>,
) -> Vec<Vec<String>> {
    runs.iter()
        .zip(items)
        .flat_map(|((r, _), items)| {
            items.iter().map(|i| {
                let mut row = vec![r.name.to_string()];
                row.extend(cells(i));
                row
            })
        })
        .collect()
}

/// A visually hidden table: the chart's figures for screen readers and a `Ctrl+F`.
fn table(lang: Lang, head: Vec<String>, rows: Vec<Vec<String>>, summary: Vec<String>) -> Html {
    html! {
        <div class="visually-hidden chart__text">
            <ul>{ for summary.into_iter().map(|s| html! { <li class="chart__summary">{ s }</li> }) }</ul>
            <table>
                <caption>{ x("chart_table", lang) }</caption>
                <thead><tr>{ for head.into_iter().map(|h| html! { <th scope="col">{ h }</th> }) }</tr></thead>
                <tbody>{ for rows.into_iter().map(|r| html! {
                    <tr>{ for r.into_iter().map(|c| html! { <td>{ c }</td> }) }</tr>
                }) }</tbody>
            </table>
        </div>
    }
}

/// Checkpoint slots shared by the runs: ids 1 … the highest any run completed.
fn slots(ids: impl Iterator<Item = u64>) -> Vec<u64> {
    let max = ids.max().unwrap_or(0);
    (1..=max).collect()
}

fn slot_left(i: usize, n: usize) -> f64 {
    i as f64 * 100.0 / n.max(1) as f64
}

fn backends(lang: Lang, runs: &[(ChartRun, Rc<WorldView>)]) -> Html {
    let bars: Vec<Vec<model::SizeBar>> = runs.iter().map(|(_, v)| model::sizes(v)).collect();
    let ids = slots(bars.iter().flatten().map(|b| b.id));
    if ids.is_empty() {
        return html! { <p class="chart__empty">{ x("chart_none_yet", lang) }</p> };
    }
    let max = bars
        .iter()
        .flatten()
        .map(|b| b.full)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let n = ids.len();
    let h = 26.0;
    let rows = runs.iter().zip(&bars).enumerate().map(|(k, ((run, _), bars))| {
        let body = html! { <>{ for bars.iter().map(|b| {
            let i = ids.iter().position(|id| *id == b.id).unwrap_or(0);
            let left = pct(slot_left(i, n));
            let full_h = (b.full as f64 / max * h).max(1.0);
            let up_h = (b.uploaded as f64 / max * h).max(1.0);
            html! {
                <g class="chart__bar" data-checkpoint={b.id.to_string()}
                   data-full={b.full.to_string()} data-uploaded={b.uploaded.to_string()}>
                    <rect class="chart__full" x={left.clone()} transform="translate(6 0)" width="14"
                          y={format!("{:.1}", h - full_h + 1.0)} height={format!("{full_h:.1}")} />
                    <rect class={classes!("chart__uploaded", format!("chart__uploaded--{k}"))}
                          x={left.clone()} transform="translate(6 0)" width="14"
                          y={format!("{:.1}", h - up_h + 1.0)} height={format!("{up_h:.1}")} />
                    <text class="chart__value" x={left.clone()} dx="24" y="22">{ b.uploaded }</text>
                    if b.full != b.uploaded {
                        <text class="chart__value-full" x={left} dx={(24 + 9 * b.uploaded.to_string().len()).to_string()} y="22">{ format!("/{}", b.full) }</text>
                    }
                </g>
            }
        }) }</> };
        row(&run.name, &run.scenario, h as u32 + 2, body)
    });
    let summary = runs
        .iter()
        .zip(&bars)
        .filter_map(|((r, _), b)| {
            b.last().map(|l| {
                xf(
                    "backend_summary",
                    lang,
                    &[
                        ("name", &r.name),
                        ("id", &l.id.to_string()),
                        ("up", &l.uploaded.to_string()),
                        ("full", &l.full.to_string()),
                    ],
                )
            })
        })
        .collect();
    let table_rows = figures(
        runs,
        &bars.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        |b| {
            vec![
                format!("chk-{}", b.id),
                b.uploaded.to_string(),
                b.full.to_string(),
            ]
        },
    );
    html! {
        <>
            <p class="chart__legend">
                <span class="chart__key chart__key--uploaded"></span>{ x("backend_uploaded", lang) }
                <span class="chart__key chart__key--full"></span>{ x("backend_full", lang) }
            </p>
            <div class="chart__body">{ for rows }{ slot_axis(&ids) }</div>
            { table(lang, vec![x("chart_run", lang), x("chart_checkpoint", lang), x("backend_uploaded", lang), x("backend_full", lang)], table_rows, summary) }
        </>
    }
}

fn alignment(lang: Lang, runs: &[(ChartRun, Rc<WorldView>)]) -> Html {
    let bars: Vec<Vec<model::AlignBar>> = runs.iter().map(|(_, v)| model::alignment(v)).collect();
    let ids = slots(bars.iter().flatten().map(|b| b.id));
    if ids.is_empty() {
        return html! { <p class="chart__empty">{ x("chart_none_yet", lang) }</p> };
    }
    let max_ms = bars
        .iter()
        .flatten()
        .map(|b| b.alignment_ms)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let max_rec = bars
        .iter()
        .flatten()
        .map(|b| b.persisted)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let n = ids.len();
    let h = 26.0;
    let rows = runs.iter().zip(&bars).map(|((run, _), bars)| {
        let body = html! { <>{ for bars.iter().map(|b| {
            let i = ids.iter().position(|id| *id == b.id).unwrap_or(0);
            let left = pct(slot_left(i, n));
            let mid = pct(slot_left(i, n) + 50.0 / n as f64);
            let ms_h = if b.alignment_ms == 0 { 1.0 } else { (b.alignment_ms as f64 / max_ms * h).max(2.0) };
            let rec_h = if b.persisted == 0 { 1.0 } else { (b.persisted as f64 / max_rec * h).max(2.0) };
            html! {
                <g class="chart__bar" data-checkpoint={b.id.to_string()}
                   data-alignment-ms={b.alignment_ms.to_string()} data-persisted={b.persisted.to_string()}>
                    <rect class="chart__align" x={left.clone()} transform="translate(6 0)" width="12"
                          y={format!("{:.1}", h - ms_h + 1.0)} height={format!("{ms_h:.1}")} />
                    <text class="chart__value" x={left} dx="22" y="22">{ format!("{} ms", b.alignment_ms) }</text>
                    <rect class="chart__persisted" x={mid.clone()} transform="translate(2 0)" width="12"
                          y={format!("{:.1}", h - rec_h + 1.0)} height={format!("{rec_h:.1}")} />
                    <text class="chart__value" x={mid} dx="18" y="22">{ b.persisted }</text>
                </g>
            }
        }) }</> };
        row(&run.name, &run.scenario, h as u32 + 2, body)
    });
    let summary = runs
        .iter()
        .zip(&bars)
        .map(|((r, _), b)| {
            let ms = b.iter().map(|b| b.alignment_ms).max().unwrap_or(0);
            let rec: u64 = b.iter().map(|b| b.persisted).sum();
            xf(
                "align_summary",
                lang,
                &[
                    ("name", &r.name),
                    ("ms", &ms.to_string()),
                    ("records", &rec.to_string()),
                ],
            )
        })
        .collect();
    let table_rows = figures(
        runs,
        &bars.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        |b| {
            vec![
                format!("chk-{}", b.id),
                b.alignment_ms.to_string(),
                b.persisted.to_string(),
            ]
        },
    );
    html! {
        <>
            <p class="chart__legend">
                <span class="chart__key chart__key--align"></span>{ x("align_ms", lang) }
                <span class="chart__key chart__key--persisted"></span>{ x("align_records", lang) }
            </p>
            <div class="chart__body">{ for rows }{ slot_axis(&ids) }</div>
            { table(lang, vec![x("chart_run", lang), x("chart_checkpoint", lang), x("align_ms", lang), x("align_records", lang)], table_rows, summary) }
        </>
    }
}

/// Times on a run's axis: `t` in percent of `end`.
fn tx(t: u64, end: u64) -> f64 {
    t as f64 * 96.0 / end.max(1) as f64 + 2.0
}

/// Time ticks every second.
fn time_axis(end: u64) -> Html {
    let step = if end > 6000 { 2000 } else { 1000 };
    axis(
        (0..=end / step)
            .map(|i| (tx(i * step, end), format!("{} ms", i * step)))
            // The last label would be cut at the right edge.
            .filter(|(at, _)| *at < 95.0)
            .collect(),
    )
}

fn restarts(lang: Lang, runs: &[(ChartRun, Rc<WorldView>)], now: u64, end: u64) -> Html {
    let rows_data: Vec<model::RestartRow> = runs.iter().map(|(_, v)| model::restarts(v)).collect();
    // Four strategies share the caption with two stages at 1280×720: rows as tall
    // as their 14 px text and no more (the stylesheet sets the names' line-height to match).
    let h = 15u32;
    let rows = runs.iter().zip(&rows_data).map(|((run, v), r)| {
        let live_end = r.failed_at.unwrap_or(v.now.min(end));
        let body = html! {
            <>
                <line class="chart__life" x1={pct(tx(0, end))} x2={pct(tx(live_end, end))} y1="7.5" y2="7.5" />
                { for r.failures.iter().map(|f| {
                    let until = f.restarted_ms.or(r.restart_at.filter(|_| f.restarted_ms.is_none() && r.failed_at.is_none()).map(|_| v.now));
                    html! {
                        <g class="chart__failure" data-at={f.at_ms.to_string()}
                           data-restarted={f.restarted_ms.map(|m| m.to_string()).unwrap_or_default()}>
                            if let Some(u) = until {
                                <rect class="chart__delay" x={pct(tx(f.at_ms, end))} width={pct(tx(u, end) - tx(f.at_ms, end))} y="1" height="13" />
                            }
                            <text class="chart__cross" x={pct(tx(f.at_ms, end))} y="12.5" text-anchor="middle">{ "✕" }</text>
                            if let Some(m) = f.restarted_ms {
                                <text class="chart__restart" x={pct(tx(m, end))} y="12.5" text-anchor="start">{ "▶" }</text>
                            }
                        </g>
                    }
                }) }
                if let Some(at) = r.failed_at {
                    <text class="chart__gave-up" x={pct(tx(at, end))} dx="12" y="12.5">{ x("restart_gave_up", lang) }</text>
                }
            </>
        };
        row(&run.name, &run.scenario, h, body)
    });
    let summary = runs
        .iter()
        .zip(&rows_data)
        .map(|((run, _), r)| {
            let restarted = r
                .failures
                .iter()
                .filter(|f| f.restarted_ms.is_some())
                .count();
            let end = r.failed_at.map_or_else(String::new, |at| {
                xf("restart_summary_failed", lang, &[("at", &at.to_string())])
            });
            xf(
                "restart_summary",
                lang,
                &[
                    ("name", &run.name),
                    ("failures", &r.failures.len().to_string()),
                    ("restarts", &restarted.to_string()),
                    ("end", &end),
                ],
            )
        })
        .collect();
    let table_rows = figures(
        runs,
        &rows_data
            .iter()
            .map(|d| d.failures.as_slice())
            .collect::<Vec<_>>(),
        |f| {
            vec![
                format!("{} ms", f.at_ms),
                f.restarted_ms.map_or("—".into(), |m| format!("{m} ms")),
            ]
        },
    );
    html! {
        <>
            <p class="chart__legend">
                <span><span class="chart__glyph chart__cross">{ "✕" }</span>{ x("restart_failure", lang) }</span>
                <span><span class="chart__key chart__key--delay"></span>{ x("restart_delay", lang) }</span>
                <span><span class="chart__glyph chart__restart">{ "▶" }</span>{ x("restart_restart", lang) }</span>
            </p>
            <div class="chart__body">{ for rows }{ now_line(now, end) }{ time_axis(end) }</div>
            { table(lang, vec![x("chart_run", lang), x("restart_failure", lang), x("restart_restart", lang)], table_rows, summary) }
        </>
    }
}

/// The current moment on a time axis (an overlay across the rows, in CSS).
fn now_line(now: u64, end: u64) -> Html {
    html! {
        <div class="chart__now" style={format!("--now: {}", tx(now.min(end), end) / 100.0)} aria-hidden="true"></div>
    }
}

fn tolerable(
    lang: Lang,
    runs: &[(ChartRun, Rc<WorldView>)],
    traces: &[Rc<Vec<CounterStep>>],
    tolerated: &[u32],
) -> Html {
    let marks: Vec<Vec<model::Mark>> = runs.iter().map(|(_, v)| model::outcomes(v)).collect();
    // One slot per checkpoint id (close completions and expiries never overprint).
    let ids = slots(marks.iter().flatten().map(|m| m.id));
    let n_slots = ids.len();
    let h = 18u32;
    let rows = runs.iter().zip(&marks).enumerate().map(|(k, ((run, v), marks))| {
        let failovers = model::counter_failovers(v);
        let trace = traces.get(k).map_or(&[][..], |t| &t[..]);
        let n = model::counter_at(trace, v.now);
        let max = tolerated.get(k).copied().unwrap_or(0);
        let body = html! {
            <>
                { for marks.iter().map(|m| {
                    let (cls, glyph) = match m.outcome {
                        Outcome::Completed => ("chart__ok", "✓"),
                        Outcome::Expired => ("chart__expired", "✕"),
                        Outcome::Aborted => ("chart__aborted", "!"),
                        Outcome::Pending => ("chart__pending", "…"),
                    };
                    let i = ids.iter().position(|id| *id == m.id).unwrap_or(0);
                    let left = pct(slot_left(i, n_slots));
                    let after = m.end_at.map(|t| model::counter_at(trace, t));
                    let failed_over = m.end_at.is_some_and(|t| failovers.contains(&t));
                    html! {
                        <>
                            <text class={classes!("chart__mark", cls)} data-checkpoint={m.id.to_string()}
                                  data-outcome={format!("{:?}", m.outcome).to_lowercase()}
                                  data-counter-after={after.map(|c| c.to_string()).unwrap_or_default()}
                                  x={left.clone()} dx="4" y="14">{ format!("{glyph}{}", m.id) }</text>
                            if let Some(c) = after {
                                <text class="chart__count" x={left.clone()} dx="30" y="14">{ format!("[{c}]") }</text>
                            }
                            if failed_over {
                                <text class="chart__failover" x={left} dx="54" y="14">{ "↻" }</text>
                            }
                        </>
                    }
                }) }
                <text class="chart__counter" data-counter={n.to_string()} x="99.5%" y="14" text-anchor="end">
                    { xf("tolerable_counter", lang, &[("n", &n.to_string()), ("max", &max.to_string())]) }
                </text>
            </>
        };
        row(&run.name, &run.scenario, h, body)
    });
    let summary = runs
        .iter()
        .zip(&marks)
        .enumerate()
        .map(|(k, ((run, v), marks))| {
            let count = |o: Outcome| marks.iter().filter(|m| m.outcome == o).count().to_string();
            let n = model::counter_at(traces.get(k).map_or(&[][..], |t| &t[..]), v.now);
            xf(
                "tolerable_summary",
                lang,
                &[
                    ("name", &run.name),
                    ("done", &count(Outcome::Completed)),
                    ("aborted", &count(Outcome::Aborted)),
                    ("expired", &count(Outcome::Expired)),
                    ("n", &n.to_string()),
                    ("max", &tolerated.get(k).copied().unwrap_or(0).to_string()),
                    ("failovers", &model::counter_failovers(v).len().to_string()),
                ],
            )
        })
        .collect();
    let table_rows = figures(
        runs,
        &marks.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        |m| {
            vec![
                format!("chk-{}", m.id),
                format!("{:?}", m.outcome),
                m.end_at.map_or("—".into(), |t| format!("{t} ms")),
            ]
        },
    );
    html! {
        <>
            <p class="chart__legend">
                <span class="chart__glyph chart__ok">{ "✓" }</span>{ x("tolerable_completed", lang) }
                <span class="chart__glyph chart__expired">{ "✕" }</span>{ x("tolerable_expired", lang) }
                <span class="chart__glyph chart__aborted">{ "!" }</span>{ x("tolerable_aborted", lang) }
                <span class="chart__glyph chart__failover">{ "↻" }</span>{ x("tolerable_failover", lang) }
                <span class="chart__glyph chart__count">{ "[n]" }</span>{ x("tolerable_counter_after", lang) }
            </p>
            <div class="chart__body">{ for rows }{ slot_axis(&ids) }</div>
            { table(lang, vec![x("chart_run", lang), x("chart_checkpoint", lang), String::new(), String::new()], table_rows, summary) }
        </>
    }
}

fn storage(lang: Lang, runs: &[(ChartRun, Rc<WorldView>)], end: u64) -> Html {
    let data: Vec<model::Survival> = runs.iter().map(|(_, v)| model::survival(v)).collect();
    let h = 18u32;
    let restore_text = |s: &model::Survival| match s.restored {
        Some(Some(id)) => xf("storage_restored", lang, &[("id", &id.to_string())]),
        Some(None) => x("storage_fresh", lang),
        None => String::new(),
    };
    let rows = runs.iter().zip(&data).map(|((run, _), s)| {
        let body = html! {
            <>
                { for s.checkpoints.iter().map(|c| {
                    let (cls, glyph) = match c.fate {
                        model::Fate::Kept => ("chart__ok", "✓"),
                        model::Fate::Lost => ("chart__lost", "✕"),
                        model::Fate::Subsumed => ("chart__subsumed", "○"),
                    };
                    html! {
                        <text class={classes!("chart__mark", cls)}
                              data-checkpoint={c.id.to_string()} data-lost={c.lost().to_string()}
                              data-fate={format!("{:?}", c.fate).to_lowercase()}
                              x={pct(tx(c.completed_at, end))} y="14" text-anchor="middle">
                            { format!("{glyph}{}", c.id) }
                        </text>
                    }
                }) }
                if let Some(at) = s.crash_at {
                    <line class="chart__crash" x1={pct(tx(at, end))} x2={pct(tx(at, end))} y1="0" y2={h.to_string()} />
                    <text class="chart__restored" x={pct(tx(at, end))} dx="8" y="14">{ restore_text(s) }</text>
                }
            </>
        };
        row(&run.name, &run.scenario, h, body)
    });
    let summary = runs
        .iter()
        .zip(&data)
        .map(|((run, _), s)| {
            let lost = s.checkpoints.iter().filter(|c| c.lost()).count();
            let kept = s
                .checkpoints
                .iter()
                .filter(|c| c.fate == model::Fate::Kept)
                .count();
            xf(
                "storage_summary",
                lang,
                &[
                    ("name", &run.name),
                    ("kept", &kept.to_string()),
                    ("lost", &lost.to_string()),
                    ("restore", &restore_text(s)),
                ],
            )
        })
        .collect();
    let table_rows = figures(
        runs,
        &data
            .iter()
            .map(|d| d.checkpoints.as_slice())
            .collect::<Vec<_>>(),
        |c| {
            vec![
                format!("chk-{}", c.id),
                x(
                    match c.fate {
                        model::Fate::Kept => "storage_survived",
                        model::Fate::Lost => "storage_lost",
                        model::Fate::Subsumed => "storage_subsumed",
                    },
                    lang,
                ),
            ]
        },
    );
    html! {
        <>
            <p class="chart__legend">
                <span class="chart__glyph chart__ok">{ "✓" }</span>{ x("storage_survived", lang) }
                <span class="chart__glyph chart__lost">{ "✕" }</span>{ x("storage_lost", lang) }
                <span class="chart__glyph chart__subsumed">{ "○" }</span>{ x("storage_subsumed", lang) }
                <span class="chart__key chart__key--crash"></span>{ x("storage_crash", lang) }
            </p>
            <div class="chart__body">{ for rows }{ now_line(runs.first().map_or(0, |(_, v)| v.now), end) }{ time_axis(end) }</div>
            { table(lang, vec![x("chart_run", lang), x("chart_checkpoint", lang), String::new()], table_rows, summary) }
        </>
    }
}

/// The chart of a comparison; see the module documentation.
#[component]
pub fn CompareChart(props: &CompareChartProps) -> Html {
    let lang = use_lang().lang;
    let kind = props.kind;
    let seed = props.seed;
    let visible: Vec<AttrValue> = props.runs.iter().map(|r| r.scenario.clone()).collect();
    // Runs to their end, once per lesson and seed: the restart strategy no stage
    // shows, the time axis's length, the counter's history.
    let finals = use_memo((kind, visible.clone(), seed), |(kind, visible, seed)| {
        let names: Vec<String> = match kind {
            Kind::Restarts => model::group_of(&visible[0])
                .iter()
                .map(|s| s.to_string())
                .collect(),
            _ => visible.iter().map(|s| s.to_string()).collect(),
        };
        let views: Vec<(String, Option<WorldView>)> = names
            .iter()
            .map(|n| (n.clone(), final_view(n, *seed)))
            .collect();
        let traces: Vec<Rc<Vec<CounterStep>>> = match kind {
            Kind::Tolerable => names
                .iter()
                .map(|n| {
                    Rc::new(
                        runner::load(n)
                            .map(|s| failure_counter_trace(&s, *seed))
                            .unwrap_or_default(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        (views, traces)
    });
    let (finals_views, traces) = &*finals;
    let end = chart_end(finals_views);
    let now = props
        .runs
        .first()
        .and_then(|r| r.view.as_ref())
        .map_or(0, |v| v.now);
    let mut runs: Vec<(ChartRun, Rc<WorldView>)> = props
        .runs
        .iter()
        .filter_map(|r| r.view.clone().map(|v| (r.clone(), v)))
        .collect();
    if runs.len() < props.runs.len() {
        return html! {};
    }
    if kind == Kind::Restarts {
        // Every strategy of the group, in library order: the visible ones live,
        // the other as its run up to the same moment.
        let mut all = Vec::new();
        for (name, fin) in finals_views {
            if let Some(r) = runs.iter().find(|(r, _)| r.scenario.as_str() == name) {
                all.push(r.clone());
            } else if let Some(v) = fin {
                all.push(cut_at(name, v, now));
            }
        }
        runs = all;
    }
    if kind != Kind::Alignment {
        let names: Vec<&str> = runs.iter().map(|(r, _)| r.scenario.as_str()).collect();
        let short = model::short_names(&names);
        for ((r, _), s) in runs.iter_mut().zip(short) {
            r.name = AttrValue::from(s);
        }
    }
    let tolerated: Vec<u32> = runs
        .iter()
        .map(|(r, _)| {
            runner::load(&r.scenario)
                .ok()
                .and_then(|s| s.checkpointing.map(|c| c.tolerable_failures))
                .unwrap_or(0)
        })
        .collect();
    let (title, body) = match kind {
        Kind::Backends => ("backend_title", backends(lang, &runs)),
        Kind::Alignment => ("align_title", alignment(lang, &runs)),
        Kind::Restarts => ("restart_title", restarts(lang, &runs, now, end)),
        Kind::Tolerable => (
            "tolerable_title",
            tolerable(lang, &runs, traces, &tolerated),
        ),
        Kind::Storage => ("storage_title", storage(lang, &runs, end)),
    };
    let chars = runs
        .iter()
        .map(|(r, _)| {
            r.name
                .chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum::<usize>()
        })
        .max()
        .unwrap_or(8)
        .clamp(6, 26);
    html! {
        <figure class={classes!("chart", format!("chart--{}", kind.key()))} id="compare-chart"
                data-chart={kind.key()} aria-labelledby="compare-chart-title"
                style={format!("--name-chars: {chars}")}>
            <figcaption class="chart__title visually-hidden" id="compare-chart-title">{ x(title, lang) }</figcaption>
            { body }
        </figure>
    }
}

/// The time axis's end: the latest failure, restart or end among the runs'
/// final views (at least a second), with room after the last mark for its label
/// ("job failed", "restored from chk-3").
fn chart_end(finals: &[(String, Option<WorldView>)]) -> u64 {
    let end = finals
        .iter()
        .filter_map(|(_, v)| v.as_ref())
        .map(|v| {
            v.failures
                .iter()
                .map(|f| f.restarted_ms.unwrap_or(f.at_ms))
                .max()
                .unwrap_or(0)
                .max(v.now)
        })
        .max()
        .unwrap_or(1000)
        .max(1000);
    (end + end / 6).div_ceil(500) * 500
}

/// A strategy's whole run `fin`, cut at `now`: a restart strategy no stage
/// shows, drawn up to the visible runs' moment.
fn cut_at(name: &str, fin: &WorldView, now: u64) -> (ChartRun, Rc<WorldView>) {
    let mut v = fin.clone();
    let gave_up = v.status == engine::JobStatus::Failed
        && v.failures
            .last()
            .is_some_and(|f| f.restarted_ms.is_none() && f.at_ms <= now);
    v.restart_at = v
        .failures
        .iter()
        .filter(|f| f.at_ms <= now)
        .find_map(|f| f.restarted_ms.filter(|r| *r > now));
    v.status = if gave_up {
        engine::JobStatus::Failed
    } else {
        engine::JobStatus::Running
    };
    v.now = now;
    (
        ChartRun {
            name: AttrValue::from(name.to_string()),
            scenario: AttrValue::from(name.to_string()),
            view: None,
        },
        Rc::new(v),
    )
}

/// Properties of [`ChartToggle`].
#[derive(Properties, PartialEq)]
pub struct ChartToggleProps {
    /// The chart is shown.
    pub open: bool,
    /// Shows or hides it.
    pub on_toggle: Callback<bool>,
}

/// The caption bar's button that shows or hides the comparison chart.
#[component]
pub fn ChartToggle(props: &ChartToggleProps) -> Html {
    let lang = use_lang().lang;
    let open = props.open;
    html! {
        <button type="button" class="text-button chart-toggle" id="chart-toggle"
                aria-pressed={open.to_string()} aria-controls="compare-chart"
                title={x("chart_show_hint", lang)}
                onclick={props.on_toggle.reform(move |_: MouseEvent| !open)}>
            { "▥ " }{ x("chart_show", lang) }
        </button>
    }
}
