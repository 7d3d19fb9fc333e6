//! What a live class adds to the page: the students' bar (following, exploring
//! with *Back to the class*, the lecturer away, reconnecting), the vote — large
//! choice buttons on a phone, the count of answers and then the spread as a
//! histogram on every screen — and the lecturer's vote controls in the
//! presenter window. The wording is the presenter's file
//! (`assets/presenter/presenter.json`, keys `class_…`).

use yew::prelude::*;

use crate::classroom::live::{question_id, question_step, Command, Live};
use crate::classroom::Round;
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::lessons::bar::letter;
use crate::lessons::tour::{self, Tour};
use crate::presenter::notes::label;

/// Properties of [`ClassBar`].
#[derive(Properties, PartialEq)]
pub struct ClassBarProps {
    /// The class.
    pub live: Live,
}

/// A student's line about the class: following, exploring, the lecturer away.
#[component]
pub fn ClassBar(props: &ClassBarProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.live;
    if !l.server || !l.student {
        return html! {};
    }
    let (state, text) = if !l.online {
        ("offline", label("class_reconnecting", lang))
    } else if l.away {
        ("away", label("class_away", lang))
    } else if l.following {
        ("following", label("class_following", lang))
    } else {
        ("exploring", label("class_exploring", lang))
    };
    html! {
        <div class={classes!("class-bar", format!("class-bar--{state}"))} id="class-bar"
             data-state={state} role="status">
            <span class="class-bar__dot" aria-hidden="true"></span>
            <span class="class-bar__text">{ text }</span>
            if !l.following {
                <button type="button" class="text-button text-button--primary" id="class-back"
                        onclick={l.rejoin.reform(|_: MouseEvent| ())}>{ label("class_back", lang) }</button>
            }
        </div>
    }
}

/// Properties of [`VotePanel`].
#[derive(Properties, PartialEq)]
pub struct VotePanelProps {
    /// The class.
    pub live: Live,
    /// The tour this window has loaded (for the question's words).
    pub tour: std::rc::Rc<Option<Tour>>,
}

/// The words of a question and its choices, when this window's tour has them.
fn words(tour: &Option<Tour>, id: &str, lang: Lang) -> Option<(String, Vec<String>)> {
    let (lesson, step) = question_step(id)?;
    let t = tour.as_ref().filter(|t| t.scenario == lesson)?;
    let s = t.steps.get(step)?;
    let ask = s.ask.as_ref().map(|a| tour::text(a, lang).to_string())?;
    Some((
        ask,
        s.choice_texts(lang)
            .into_iter()
            .map(str::to_string)
            .collect(),
    ))
}

/// The class's vote: a student's choices while a round is open, how many have
/// answered, and each revealed round's spread.
#[component]
pub fn VotePanel(props: &VotePanelProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.live;
    let Some(vote) = l.class.as_ref().and_then(|c| c.vote.clone()) else {
        return html! {};
    };
    if vote.drill.is_some() {
        return html! { <crate::drill::class::DrillVote live={l.clone()} /> };
    }
    let Some(current) = vote.rounds.last() else {
        return html! {};
    };
    let (ask, texts) = words(&props.tour, &vote.question, lang).unwrap_or_default();
    let text_of = |i: usize| texts.get(i).cloned().unwrap_or_default();
    let student = l.student;
    let picked = l
        .mine
        .iter()
        .find(|(q, r, _)| *q == vote.question && *r == current.round)
        .map(|(_, _, c)| usize::from(*c));
    let answered = label("class_answered", lang).replace("{n}", &current.answered.to_string());
    let buttons = (student && current.open).then(|| {
        html! {
            <div class="class-vote__choices" role="group" aria-label={label("class_vote", lang)}>
                { for (0..usize::from(current.choices)).map(|i| {
                    let onclick = {
                        let (vote_cb, q, r) = (l.vote.clone(), vote.question.clone(), current.round);
                        Callback::from(move |_: MouseEvent| vote_cb.emit((q.clone(), r, i as u8)))
                    };
                    html! {
                        <button type="button" id={format!("class-choice-{}", i + 1)}
                                class={classes!("class-vote__choice", (picked == Some(i)).then_some("class-vote__choice--mine"))}
                                aria-pressed={(picked == Some(i)).to_string()} {onclick}>
                            <span class="class-vote__letter" aria-hidden="true">{ letter(i) }</span>
                            <span class="class-vote__text">{ text_of(i) }</span>
                        </button>
                    }
                }) }
            </div>
        }
    });
    let status = match (current.open, picked, student) {
        (true, Some(p), true) => {
            label("class_your_pick", lang).replace("{letter}", &letter(p).to_string())
        }
        (true, _, _) => answered.clone(),
        (false, _, _) if current.tally.is_none() => {
            format!("{} · {}", label("class_closed", lang), answered)
        }
        _ => answered.clone(),
    };
    let revealed: Vec<&Round> = vote.rounds.iter().filter(|r| r.tally.is_some()).collect();
    html! {
        <section class={classes!("class-vote", (student && current.right.is_none()).then_some("class-vote--student"))} id="class-vote"
                 data-question={vote.question.clone()} data-round={current.round.to_string()}
                 data-open={current.open.to_string()} data-answered={current.answered.to_string()}
                 aria-label={label("class_vote", lang)}>
            <p class="class-vote__ask">
                <strong>{ label("class_vote", lang) }</strong>
                if !ask.is_empty() { { " " }{ ask } }
            </p>
            { buttons.unwrap_or_default() }
            <p class="class-vote__status" id="class-vote-status" aria-live="polite">{ status }</p>
            if !revealed.is_empty() {
                <div class="class-vote__histograms">
                    { for revealed.iter().map(|r| histogram(r, lang)) }
                </div>
            }
        </section>
    }
}

/// One revealed round's spread: a bar per choice, the right one marked in
/// words and a tick, not by colour alone.
fn histogram(r: &Round, lang: Lang) -> Html {
    let tally = r.tally.clone().unwrap_or_default();
    let most = tally.iter().copied().max().unwrap_or(0).max(1);
    let total: u32 = tally.iter().sum();
    html! {
        <figure class="class-hist" id={format!("class-hist-{}", r.round)} data-round={r.round.to_string()}
                data-tally={tally.iter().map(u32::to_string).collect::<Vec<_>>().join(",")}
                data-right={r.right.map(|c| c.to_string())}>
            <figcaption>{ label("class_round", lang).replace("{n}", &r.round.to_string()) }
                { " · " }{ label("class_answered", lang).replace("{n}", &total.to_string()) }</figcaption>
            { for tally.iter().enumerate().map(|(i, n)| {
                let right = r.right == Some(i as u8);
                let width = format!("width: {:.0}%", f64::from(*n) * 100.0 / f64::from(most));
                html! {
                    <div class={classes!("class-hist__row", right.then_some("class-hist__row--right"))}>
                        <span class="class-hist__letter">{ letter(i) }</span>
                        <span class="class-hist__track"><span class="class-hist__bar" style={width}></span></span>
                        <span class="class-hist__count">{ n.to_string() }</span>
                        if right {
                            <span class="class-hist__mark">{ "✓ " }{ label("class_right", lang) }</span>
                        }
                    </div>
                }
            }) }
        </figure>
    }
}

/// Properties of [`VoteControls`].
#[derive(Properties, PartialEq)]
pub struct VoteControlsProps {
    /// The class.
    pub live: Live,
    /// The lesson shown.
    pub lesson: AttrValue,
    /// The tour step shown (0-based).
    pub step: usize,
    /// How many choices the step's question has.
    pub choices: usize,
    /// The right one.
    pub right: Option<usize>,
    /// Plays the moment (the reveal).
    pub play: Callback<()>,
}

/// The lecturer's controls of the class's vote on the current step's
/// question: open it, show the spread, a second round, reveal the answer.
#[component]
pub fn VoteControls(props: &VoteControlsProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.live;
    if !l.server || !l.lecturer || props.choices < 2 {
        return html! {};
    }
    let id = question_id(&props.lesson, props.step);
    let vote = l
        .class
        .as_ref()
        .and_then(|c| c.vote.clone())
        .filter(|v| v.question == id);
    let current = vote.as_ref().and_then(|v| v.rounds.last().cloned());
    let choices = props.choices as u8;
    let open = |round: u32| {
        let (cmd, id) = (l.command.clone(), id.clone());
        Callback::from(move |_: MouseEvent| {
            cmd.emit(Command::Open {
                question: id.clone(),
                round,
                choices,
                drill: None,
            })
        })
    };
    let reveal = |round: u32, right: Option<u8>| {
        let (cmd, id, play) = (l.command.clone(), id.clone(), props.play.clone());
        Callback::from(move |_: MouseEvent| {
            cmd.emit(Command::Reveal {
                question: id.clone(),
                round,
                right,
                marked: false,
            });
            if right.is_some() {
                play.emit(());
            }
        })
    };
    let right = props.right.map(|r| r as u8);
    let buttons = match &current {
        None => html! {
            <button type="button" class="text-button text-button--primary" id="class-open"
                    onclick={open(1)}>{ label("class_open_vote", lang) }</button>
        },
        Some(r) if r.open => html! {
            <>
                <button type="button" class="text-button" id="class-spread"
                        onclick={reveal(r.round, None)}>{ label("class_show_spread", lang) }</button>
                <button type="button" class="text-button text-button--primary" id="class-reveal"
                        onclick={reveal(r.round, right)}>{ label("class_reveal", lang) }</button>
            </>
        },
        Some(r) if r.right.is_none() => html! {
            <>
                if r.round < 8 {
                    <button type="button" class="text-button" id="class-again"
                            onclick={open(r.round + 1)}>{ label("class_vote_again", lang) }</button>
                }
                <button type="button" class="text-button text-button--primary" id="class-reveal"
                        onclick={reveal(r.round, right)}>{ label("class_reveal", lang) }</button>
            </>
        },
        Some(_) => html! { <span>{ label("class_revealed", lang) }</span> },
    };
    html! {
        <div class="presenter__class" id="presenter-class">
            <h3>{ label("class_vote", lang) }</h3>
            <div class="presenter__class-buttons">{ buttons }</div>
            if let Some(e) = &l.error {
                <p class="presenter__class-error" role="alert">{ e.clone() }</p>
            }
        </div>
    }
}
