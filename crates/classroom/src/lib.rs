//! The classroom server: serves the release page to a class over the LAN and
//! carries the lecturer's moment and the class's votes to the students' phones
//! (see docs/classroom.md).

pub mod class;
pub mod cli;
pub mod linked;
pub mod probe;
pub mod qr;
pub mod server;
pub mod site;
