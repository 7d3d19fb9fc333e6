//! The lecturer's side of the drill in class mode (docs/classroom.md, "Votes"):
//! the controls in an exercise's card that ask the class that exercise, one
//! variant for everyone. What the phones and the screens show is [`super::class`].

use engine::drill::Kind;
use yew::prelude::*;

use crate::classroom::live::{Command, Live};
use crate::classroom::{drill_question_id, DrillRef, Vote};
use crate::hooks::use_lang;
use crate::presenter::notes::label;

/// Whether `vote` is the class's vote on this exercise.
fn is_this(vote: &Vote, id: &str) -> bool {
    vote.question == id && vote.drill.is_some()
}

/// Properties of [`AskTheClass`].
#[derive(Properties, PartialEq)]
pub struct AskTheClassProps {
    /// The exercise's kind.
    pub kind: Kind,
    /// Its variant: the class answers this one.
    pub variant: u64,
}

/// The lecturer's controls of a drill vote in the exercise's card, as a tour
/// question's: ask the class, close the round and show the spread of the
/// answers (not which is right), ask again after the class discussed, reveal
/// right and wrong. Only in the lecturer's window of a live class.
#[component]
pub fn AskTheClass(props: &AskTheClassProps) -> Html {
    let lang = use_lang().lang;
    let Some(l) = use_context::<Live>() else {
        return html! {};
    };
    if !l.server || !l.lecturer {
        return html! {};
    }
    let id = drill_question_id(props.kind.key(), props.variant);
    let current = l
        .class
        .as_ref()
        .and_then(|c| c.vote.as_ref())
        .filter(|v| is_this(v, &id))
        .and_then(|v| v.rounds.last().cloned());
    let drill = DrillRef {
        kind: props.kind.key().to_string(),
        variant: props.variant,
    };
    let open = |round: u32| {
        let (cmd, id, drill) = (l.command.clone(), id.clone(), drill.clone());
        Callback::from(move |_: MouseEvent| {
            cmd.emit(Command::Open {
                question: id.clone(),
                round,
                choices: 0,
                drill: Some(drill.clone()),
            })
        })
    };
    let reveal = |round: u32, marked: bool| {
        let (cmd, id) = (l.command.clone(), id.clone());
        Callback::from(move |_: MouseEvent| {
            cmd.emit(Command::Reveal {
                question: id.clone(),
                round,
                right: None,
                marked,
            })
        })
    };
    let reveal_button = |round: u32| {
        html! {
            <button type="button" class="text-button text-button--primary" id="class-drill-reveal"
                    onclick={reveal(round, true)}>{ label("class_drill_reveal", lang) }</button>
        }
    };
    let buttons = match &current {
        None => html! {
            <button type="button" class="text-button text-button--primary" id="class-drill-ask"
                    onclick={open(1)}>{ label("class_drill_ask", lang) }</button>
        },
        Some(r) if r.judged.is_none() => html! {
            <>
                <span class="class-drill__asking">{ label("class_drill_asking", lang) }{ " · " }
                    { label("class_answered", lang).replace("{n}", &r.answered.to_string()) }</span>
                <button type="button" class="text-button" id="class-drill-spread"
                        onclick={reveal(r.round, false)}>{ label("class_drill_spread", lang) }</button>
                { reveal_button(r.round) }
            </>
        },
        Some(r) => html! {
            <>
                if r.round < 8 {
                    <button type="button" class="text-button" id="class-drill-again"
                            onclick={open(r.round + 1)}>{ label("class_vote_again", lang) }</button>
                }
                if r.judged.as_ref().is_some_and(|j| j.right.is_none()) {
                    { reveal_button(r.round) }
                }
            </>
        },
    };
    html! {
        <div class="class-drill__controls" id="class-drill-controls">
            { buttons }
            if let Some(e) = &l.error {
                <p class="presenter__class-error" role="alert">{ e.clone() }</p>
            }
        </div>
    }
}
