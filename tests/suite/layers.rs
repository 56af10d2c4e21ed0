//! The crate's house rules, read from the source: the layers of docs/ARCHITECTURE.md run one way
//! (no module imports from a layer below it in that list), no file imports from a file that
//! imports from it (directly or by a longer circle), and the file map of docs/ARCHITECTURE.md
//! names exactly the files there are.
//!
//! Imports are read as paths that start with `crate::`, `$crate::`, `super::` or `self::`
//! anywhere in a file's code (`use` lines, paths in expressions and macros), comments left out.
//! A path is resolved to the longest module path that has a file; a path into the crate's root
//! (`crate::{Ray, Sphere}`) counts as an error, since the root only re-exports. A module's own
//! file using its submodules is not an import in this sense (that is what a module is); a
//! submodule using its parent is.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file under `dir` whose name ends with one of `extensions`, relative to `dir`, with `/`.
fn files(dir: &Path, extensions: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in fs::read_dir(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if extensions
                .iter()
                .any(|e| path.to_string_lossy().ends_with(e))
            {
                let relative = path.strip_prefix(dir).expect("below the directory");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// The module path of a source file (`scene/node/mod.rs` is `["scene", "node"]`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file without its comments (line comments and doc comments).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file's code names, each as written after its anchor: `super::x::y` from
/// `scene/traverse.rs` is `["scene", "x", "y"]`. Groups (`use super::{a::B, c}`) give one path
/// per member. The code of an inline `mod tests` is read as that module's.
fn paths_in(code: &str, module: &[String]) -> Vec<Vec<String>> {
    if let Some(at) = code.find("mod tests {") {
        let mut inner = module.to_vec();
        inner.push("tests".into());
        let mut paths = paths_in(&code[..at], module);
        paths.extend(paths_in(&code[at + "mod tests {".len()..], &inner));
        return paths;
    }
    let chars: Vec<char> = code.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let word_at = |i: usize| {
        let mut j = i;
        while j < chars.len() && is_word(chars[j]) {
            j += 1;
        }
        (chars[i..j].iter().collect::<String>(), j)
    };
    let joined = |j: usize| j + 1 < chars.len() && chars[j] == ':' && chars[j + 1] == ':';
    let mut paths = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_alphabetic() || (i > 0 && is_word(chars[i - 1])) {
            i += 1;
            continue;
        }
        let (word, mut j) = word_at(i);
        i = j;
        let mut base: Vec<String> = match word.as_str() {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            _ => continue,
        };
        if !joined(j) {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        let mut grouped = false;
        while joined(j) {
            j += 2;
            if chars.get(j) == Some(&'{') {
                let close = (j..chars.len())
                    .find(|&k| chars[k] == '}')
                    .unwrap_or(chars.len());
                let group: String = chars[j + 1..close].iter().collect();
                for member in group.split(',') {
                    let mut path = base.clone();
                    path.extend(names.iter().cloned());
                    path.extend(
                        member
                            .split("::")
                            .map(str::trim)
                            .filter(|s| !s.is_empty() && s.chars().all(is_word))
                            .map(String::from),
                    );
                    paths.push(path);
                }
                grouped = true;
                j = close;
                break;
            }
            let (next, k) = word_at(j);
            if next.is_empty() {
                break;
            }
            j = k;
            if next == "super" && names.is_empty() {
                base.pop();
            } else {
                names.push(next);
            }
        }
        if !grouped {
            base.extend(names);
            paths.push(base);
        }
        i = j;
    }
    paths
}

/// The file of the longest prefix of `path` that is a module with a file, as a module path.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
        .unwrap_or_default()
}

/// The layers, lowest first, as the line of docs/ARCHITECTURE.md that starts with "Layers,
/// lowest first:" lists them: separated by `;`, the modules of one layer by spaces.
fn layers() -> BTreeMap<String, usize> {
    let text =
        fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md")).expect("ARCHITECTURE");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Layers, lowest first: "))
        .expect("docs/ARCHITECTURE.md has a line \"Layers, lowest first: ...\"");
    let mut layers = BTreeMap::new();
    for (rank, layer) in line.trim_end_matches('.').split(';').enumerate() {
        for module in layer.split_whitespace() {
            layers.insert(module.trim_matches('`').to_string(), rank);
        }
    }
    layers
}

/// Each source file's module path and the module paths (with files) it imports, in the crate
/// whose root is `src/` (`python/src/` for the Python package's binding).
fn imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    imports_in(&Path::new(ROOT).join("src"))
}

/// [`imports`] of the crate whose sources are in `src`.
fn imports_in(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let sources = files(src, &[".rs"]);
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|f| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for file in &sources {
        let module = module_of(file);
        let text = fs::read_to_string(src.join(file)).expect("a source file");
        let mut imported = BTreeSet::new();
        for path in paths_in(&code_of(&text), &module) {
            let target = resolve(&path, &modules);
            // A module's own file using its parts (or itself) is not an import.
            if !target.starts_with(&module) {
                imported.insert(target);
            }
        }
        graph.insert(module, imported);
    }
    graph
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "the crate's root".into()
    } else {
        module.join("::")
    }
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let layers = layers();
    let mut wrong = Vec::new();
    for (module, imported) in imports() {
        let Some(first) = module.first() else {
            continue;
        };
        let rank = *layers
            .get(first)
            .unwrap_or_else(|| panic!("module `{first}` is in no layer of docs/ARCHITECTURE.md"));
        for target in imported {
            match target.first().map(|t| layers.get(t).copied()) {
                None => wrong.push(format!("{} imports from {}", name(&module), name(&target))),
                Some(None) => panic!("module `{}` is in no layer", target[0]),
                Some(Some(r)) if r > rank => wrong.push(format!(
                    "{} imports from {}, a higher layer",
                    name(&module),
                    name(&target)
                )),
                Some(Some(_)) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each module of the Python package (`python/raysweep/`, a file's stem) and the package's
/// modules it imports: `from .x import ...`, `from . import x`, `from raysweep.x import ...`,
/// `import raysweep.x`, wherever they stand (in functions too); the compiled `_raysweep` left out,
/// as it imports nothing back.
fn python_imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let dir = Path::new(ROOT).join("python/raysweep");
    let modules: Vec<String> = files(&dir, &[".py"])
        .iter()
        .map(|f| f.trim_end_matches(".py").to_string())
        .collect();
    let mut graph = BTreeMap::new();
    for module in &modules {
        let text = fs::read_to_string(dir.join(format!("{module}.py"))).expect("a module");
        let mut imported = BTreeSet::new();
        for line in text.lines().map(str::trim) {
            let named: Vec<&str> = if let Some(rest) = line.strip_prefix("from ") {
                let (from, what) = rest.split_once(" import ").unwrap_or((rest, ""));
                match from.trim() {
                    "." => what.split(',').map(str::trim).collect(),
                    other => vec![
                        other
                            .trim_start_matches('.')
                            .trim_start_matches("raysweep."),
                    ],
                }
            } else if let Some(rest) = line.strip_prefix("import raysweep.") {
                vec![rest.split_whitespace().next().unwrap_or("")]
            } else {
                continue;
            };
            for name in named {
                let name = name
                    .split('.')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .next();
                if let Some(name) = name.filter(|n| modules.iter().any(|m| m == n) && n != module) {
                    imported.insert(vec![name.to_string()]);
                }
            }
        }
        graph.insert(vec![module.clone()], imported);
    }
    graph
}

/// The circles of `graph`: modules that import, directly or by a longer way, from themselves.
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Depth first from each module; a module met again on the current path closes a circle.
    fn visit(
        at: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        path: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if let Some(from) = path.iter().position(|m| m == at) {
            let circle: Vec<String> = path[from..].iter().chain([at]).map(|m| name(m)).collect();
            circles.push(circle.join(" -> "));
            return;
        }
        if !done.insert(at.clone()) {
            return;
        }
        path.push(at.clone());
        for next in graph.get(at).into_iter().flatten() {
            visit(next, graph, path, done, circles);
        }
        path.pop();
    }
    let mut circles = Vec::new();
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, graph, &mut Vec::new(), &mut done, &mut circles);
    }
    circles
}

#[test]
fn no_file_imports_in_a_circle() {
    for (tree, graph) in [
        ("src", imports()),
        (
            "python/src",
            imports_in(&Path::new(ROOT).join("python/src")),
        ),
        ("python/raysweep", python_imports()),
    ] {
        let circles = circles(&graph);
        assert!(
            circles.is_empty(),
            "import circles in {tree}:\n{}",
            circles.join("\n")
        );
    }
    // The Python modules' imports were read: the package's face imports its parts.
    let python = python_imports();
    assert!(python[&vec!["__init__".to_string()]].contains(&vec!["_scene".to_string()]));
}

/// No part of the scenes imports from their folder's face (`src/scene/mod.rs`), which only names
/// the parts and what they export: each imports the part it needs.
#[test]
fn the_scenes_face_only_exports() {
    let scene = vec!["scene".to_string()];
    let mut wrong = Vec::new();
    for (module, imported) in imports() {
        if module.starts_with(&scene) && module != scene && imported.contains(&scene) {
            wrong.push(name(&module));
        }
    }
    assert!(wrong.is_empty(), "import from src/scene/mod.rs: {wrong:?}");
    let face = fs::read_to_string(Path::new(ROOT).join("src/scene/mod.rs")).expect("the face");
    let code = code_of(&face);
    let items: Vec<&str> = code
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("mod ") && !l.starts_with("pub use "))
        .filter(|l| !l.starts_with("#[doc(hidden)]") && !l.starts_with(char::is_whitespace))
        .filter(|l| !l.starts_with("Image,") && !l.ends_with("};") && !l.ends_with(','))
        .collect();
    assert!(
        items.is_empty(),
        "src/scene/mod.rs holds more than its map: {items:?}"
    );
}

/// The files the tree of docs/ARCHITECTURE.md names, as paths from the repository's root: each
/// line's leading names (ending in `/` for a folder), nested by two spaces of indentation.
fn mapped() -> BTreeSet<String> {
    let text =
        fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md")).expect("ARCHITECTURE");
    let tree = text
        .split("```")
        .nth(1)
        .expect("a file tree in docs/ARCHITECTURE.md");
    let mut folders: Vec<String> = Vec::new();
    let mut named = BTreeSet::new();
    for line in tree.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let depth = (line.len() - line.trim_start().len()) / 2;
        folders.truncate(depth);
        for word in line.split_whitespace() {
            let is_name =
                word.ends_with('/') || [".rs", ".py", ".pyi"].iter().any(|e| word.ends_with(e));
            if !is_name {
                break;
            }
            if let Some(folder) = word.strip_suffix('/') {
                folders.push(folder.to_string());
            } else {
                let mut path: PathBuf = folders.iter().collect();
                path.push(word);
                named.insert(path.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    named
}

#[test]
fn the_file_map_names_exactly_the_files_there_are() {
    let mut there = BTreeSet::new();
    for (dir, extensions) in [
        ("src", &[".rs"][..]),
        ("python/src", &[".rs"][..]),
        ("python/raysweep", &[".py", ".pyi"][..]),
    ] {
        for file in files(&Path::new(ROOT).join(dir), extensions) {
            there.insert(format!("{dir}/{file}"));
        }
    }
    let named = mapped();
    let missing: Vec<_> = there.difference(&named).collect();
    let extra: Vec<_> = named.difference(&there).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/ARCHITECTURE.md's file map misses {missing:?} and names {extra:?}, which do not exist"
    );
}
