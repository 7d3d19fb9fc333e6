//! `classroom`: serves the release page to a class (see docs/classroom.md).

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(classroom::cli::main(args).await);
}
