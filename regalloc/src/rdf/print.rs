//! The graph as text, in the format of LLVM's RDF printers (`-hexagon-rdf-dump`): `s3: L2_loadri_io [d4<R0>(+d9,,u7):, u5<R0>(+d9):]`.

use std::fmt::Write;

use crate::ir::{Operand, Symbol};
use crate::target::InstrFlags;

use super::build::DataFlowGraph;
use super::graph::{Attrs, NodeId};

impl DataFlowGraph<'_, '_, '_> {
    /// The whole graph, from `DFG dump:[` to `]` and its newline.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "DFG dump:[");
        let _ = writeln!(s, "{}: Function: {}", self.id_text(self.func), self.f.name);
        for b in self.arena.members(self.func) {
            self.write_block(&mut s, b);
            s.push('\n');
        }
        s.push_str("]\n");
        s
    }

    /// A node's id with its kind letter and, for references, its flags.
    pub fn id_text(&self, id: NodeId) -> String {
        if id == 0 {
            return "null".to_string();
        }
        let a = self.arena.node(id).attrs;
        let mut s = String::new();
        match a.kind() {
            Attrs::FUNC => s.push('f'),
            Attrs::BLOCK => s.push('b'),
            Attrs::STMT => s.push('s'),
            Attrs::PHI => s.push('p'),
            k => {
                for (f, c) in [
                    (Attrs::UNDEF, '/'),
                    (Attrs::DEAD, '\\'),
                    (Attrs::PRESERVING, '+'),
                    (Attrs::CLOBBERING, '~'),
                ] {
                    if a.has(f) {
                        s.push(c);
                    }
                }
                s.push(if k == Attrs::USE { 'u' } else { 'd' });
            }
        }
        let _ = write!(s, "{id}");
        if !a.is_code() && a.has(Attrs::SHADOW) {
            s.push('"');
        }
        s
    }

    fn write_block(&self, s: &mut String, bn: NodeId) {
        let b = self.arena.code(bn) as usize;
        let data = &self.f.blocks[b];
        let list = |v: Vec<usize>| {
            v.iter()
                .map(|n| format!("%bb.{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let preds: Vec<usize> = data.preds.iter().map(|p| p.index()).collect();
        let succs: Vec<usize> = data.succs.iter().map(|p| p.block.index()).collect();
        let _ = writeln!(
            s,
            "{}: --- %bb.{b} --- preds({}): {}  succs({}): {}",
            self.id_text(bn),
            preds.len(),
            list(preds.clone()),
            succs.len(),
            list(succs.clone())
        );
        for ia in self.arena.members(bn) {
            if self.arena.node(ia).attrs.kind() == Attrs::PHI {
                let _ = writeln!(s, "{}: phi [{}]", self.id_text(ia), self.refs_text(ia));
            } else {
                let _ = writeln!(
                    s,
                    "{}: {}{} [{}]",
                    self.id_text(ia),
                    self.f.inst(self.stmt_inst(ia)).op.name(self.target()),
                    self.target_text(ia),
                    self.refs_text(ia)
                );
            }
        }
    }

    fn stmt_inst(&self, ia: NodeId) -> crate::ir::Inst {
        crate::ir::Inst::new(self.arena.code(ia) as usize)
    }

    /// For calls and branches, ` ` and the first block or symbol operand.
    fn target_text(&self, ia: NodeId) -> String {
        let i = self.stmt_inst(ia);
        let d = self.f.inst(i);
        let jumps = match d.op {
            crate::ir::Op::Target(o) => {
                let desc = self.target().instr(o);
                desc.is(InstrFlags::CALL) || desc.is(InstrFlags::BRANCH)
            }
            _ => false,
        };
        if !jumps {
            return String::new();
        }
        for o in &d.operands {
            match o {
                Operand::Block(b) => return format!(" %bb.{}", b.index()),
                Operand::Symbol(sym) => match &sym.sym {
                    Symbol::Global(n) | Symbol::External(n) => {
                        return format!(" {}", unquote(n));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        String::new()
    }

    fn refs_text(&self, ia: NodeId) -> String {
        self.arena
            .members(ia)
            .into_iter()
            .map(|r| self.ref_text(r))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// One reference: header, links, sibling.
    pub fn ref_text(&self, r: NodeId) -> String {
        let n = self.arena.node(r);
        let mut s = format!("{}<{}>", self.id_text(r), self.regs.print(self.ref_reg(r)));
        if n.attrs.has(Attrs::FIXED) {
            s.push('!');
        }
        let opt = |id: NodeId| {
            if id == 0 {
                String::new()
            } else {
                self.id_text(id)
            }
        };
        s.push('(');
        s.push_str(&opt(self.arena.reaching_def(r)));
        if n.attrs.kind() == Attrs::DEF {
            let _ = write!(
                s,
                ",{},{}",
                opt(self.arena.reached_def(r)),
                opt(self.arena.reached_use(r))
            );
        } else if n.attrs.has(Attrs::PHI_REF) {
            let _ = write!(s, ",{}", opt(self.arena.predecessor(r)));
        }
        s.push_str("):");
        s.push_str(&opt(self.arena.sibling(r)));
        s
    }
}

/// A symbol's name as LLVM's `getName` gives it (without MIR's quotes).
fn unquote(n: &str) -> &str {
    n.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(n)
}
