//! The data-flow graph's nodes: an arena of fixed-size records whose ids are their allocation order from 1, as LLVM's node allocator numbers them (its blocks of 4096 nodes follow each other without gaps), and the member lists of code nodes, kept as LLVM keeps them (a circular list through each node's `next`).

use crate::ir::Inst;

use super::regs::RegisterRef;

/// A node's id: its position in the arena, from 1; 0 is "no node".
pub type NodeId = u32;

/// What a node is and how a reference behaves, one bit or field each.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Attrs(pub u16);

impl Attrs {
    const KIND_MASK: u16 = 0x7;
    /// The function node.
    pub const FUNC: Attrs = Attrs(1);
    /// A block node.
    pub const BLOCK: Attrs = Attrs(2);
    /// A statement node (one machine instruction).
    pub const STMT: Attrs = Attrs(3);
    /// A phi node.
    pub const PHI: Attrs = Attrs(4);
    /// A definition.
    pub const DEF: Attrs = Attrs(5);
    /// A use.
    pub const USE: Attrs = Attrs(6);

    /// One of several nodes for the same operand, each reached by another
    /// part of its register (printed `"`).
    pub const SHADOW: Attrs = Attrs(1 << 4);
    /// The definition leaves its register's value unspecified (a call's
    /// clobbers; printed `~`).
    pub const CLOBBERING: Attrs = Attrs(1 << 5);
    /// The reference belongs to a phi and names its register itself.
    pub const PHI_REF: Attrs = Attrs(1 << 6);
    /// The definition may leave (part of) the register as it was (predicated
    /// definitions and phis; printed `+`).
    pub const PRESERVING: Attrs = Attrs(1 << 7);
    /// The register may not be renamed (calls, returns, implicit operands of
    /// the description; printed `!`).
    pub const FIXED: Attrs = Attrs(1 << 8);
    /// An undefined use, or a preserving definition of a register that was
    /// not live before (printed `/`).
    pub const UNDEF: Attrs = Attrs(1 << 9);
    /// A dead definition of a call (printed `\`).
    pub const DEAD: Attrs = Attrs(1 << 10);

    /// The kind bits alone.
    pub fn kind(self) -> Attrs {
        Attrs(self.0 & Self::KIND_MASK)
    }

    /// Whether every bit of `o` is set (for flags).
    pub fn has(self, o: Attrs) -> bool {
        self.0 & o.0 == o.0
    }

    /// Whether this is a code node (function, block, statement, phi).
    pub fn is_code(self) -> bool {
        matches!(
            self.kind(),
            Attrs::FUNC | Attrs::BLOCK | Attrs::STMT | Attrs::PHI
        )
    }
}

impl std::ops::BitOr for Attrs {
    type Output = Attrs;
    fn bitor(self, o: Attrs) -> Attrs {
        Attrs(self.0 | o.0)
    }
}

/// Where a reference's register comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RefSource {
    /// Nothing (code nodes).
    None,
    /// Operand `operand` of instruction `inst`.
    Operand {
        /// The instruction.
        inst: Inst,
        /// The operand's position.
        operand: u16,
    },
    /// A phi's own register.
    Phi(RegisterRef),
}

/// One node: a fixed-size record for every kind.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Node {
    /// Kind and flags.
    pub attrs: Attrs,
    /// The next node in the owner's circular member list.
    pub next: NodeId,
    /// Code nodes: first member, last member, and the block or instruction
    /// (index) for blocks and statements. References: reaching definition,
    /// sibling, then reached definition and reached use for definitions,
    /// or the predecessor block node for phi uses.
    pub link: [NodeId; 4],
    /// The register of a reference.
    pub source: RefSource,
}

impl Node {
    fn new(attrs: Attrs) -> Node {
        Node {
            attrs,
            next: 0,
            link: [0; 4],
            source: RefSource::None,
        }
    }
}

/// The node arena.
#[derive(Clone, Debug, Default)]
pub struct Arena {
    nodes: Vec<Node>,
}

// Field positions in `Node::link`.
const FIRST: usize = 0;
const LAST: usize = 1;
/// A code node's block or instruction index.
pub(crate) const CODE: usize = 2;
const REACHING: usize = 0;
const SIBLING: usize = 1;
const REACHED_DEF: usize = 2;
const REACHED_USE: usize = 3;
const PREDECESSOR: usize = 2;

impl Arena {
    /// Node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize - 1]
    }

    fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize - 1]
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// A new node; its id is the next in allocation order.
    pub(crate) fn alloc(&mut self, attrs: Attrs) -> NodeId {
        self.nodes.push(Node::new(attrs));
        self.nodes.len() as NodeId
    }

    /// A copy of reference `id` without data-flow links.
    pub(crate) fn clone_ref(&mut self, id: NodeId) -> NodeId {
        let mut n = *self.node(id);
        n.link[REACHING] = 0;
        n.link[SIBLING] = 0;
        if n.attrs.kind() == Attrs::DEF {
            n.link[REACHED_DEF] = 0;
            n.link[REACHED_USE] = 0;
        }
        self.nodes.push(n);
        self.nodes.len() as NodeId
    }

    pub(crate) fn set_flags(&mut self, id: NodeId, a: Attrs) {
        self.node_mut(id).attrs = Attrs(self.node(id).attrs.0 | a.0);
    }

    pub(crate) fn set_source(&mut self, id: NodeId, s: RefSource) {
        self.node_mut(id).source = s;
    }

    pub(crate) fn set_code(&mut self, id: NodeId, index: u32) {
        self.node_mut(id).link[CODE] = index;
    }

    /// A code node's block or instruction index.
    pub fn code(&self, id: NodeId) -> u32 {
        self.node(id).link[CODE]
    }

    /// A reference's reaching definition (0: none).
    pub fn reaching_def(&self, id: NodeId) -> NodeId {
        self.node(id).link[REACHING]
    }

    /// The next reference reached by the same definition (0: none).
    pub fn sibling(&self, id: NodeId) -> NodeId {
        self.node(id).link[SIBLING]
    }

    /// The first definition a definition reaches (0: none).
    pub fn reached_def(&self, id: NodeId) -> NodeId {
        self.node(id).link[REACHED_DEF]
    }

    /// The first use a definition reaches (0: none).
    pub fn reached_use(&self, id: NodeId) -> NodeId {
        self.node(id).link[REACHED_USE]
    }

    /// A phi use's predecessor block node.
    pub fn predecessor(&self, id: NodeId) -> NodeId {
        self.node(id).link[PREDECESSOR]
    }

    pub(crate) fn set_predecessor(&mut self, id: NodeId, b: NodeId) {
        self.node_mut(id).link[PREDECESSOR] = b;
    }

    /// Links reference `r` to its reaching definition `d`, at the head of
    /// `d`'s reached-definition or reached-use chain.
    pub(crate) fn link_to_def(&mut self, r: NodeId, d: NodeId) {
        let slot = if self.node(r).attrs.kind() == Attrs::DEF {
            REACHED_DEF
        } else {
            REACHED_USE
        };
        let head = self.node(d).link[slot];
        let n = self.node_mut(r);
        n.link[REACHING] = d;
        n.link[SIBLING] = head;
        self.node_mut(d).link[slot] = r;
    }

    /// Puts `n` after `a` in the circular list.
    fn append(&mut self, a: NodeId, n: NodeId) {
        let next = self.node(a).next;
        if next != n {
            self.node_mut(a).next = n;
            self.node_mut(n).next = next;
        }
    }

    /// Adds `n` at the end of code node `c`'s members.
    pub(crate) fn add_member(&mut self, c: NodeId, n: NodeId) {
        let last = self.node(c).link[LAST];
        if last != 0 {
            self.append(last, n);
        } else {
            self.node_mut(c).link[FIRST] = n;
            self.node_mut(n).next = c;
        }
        self.node_mut(c).link[LAST] = n;
    }

    /// Adds `n` after member `a` of code node `c`.
    pub(crate) fn add_member_after(&mut self, c: NodeId, a: NodeId, n: NodeId) {
        self.append(a, n);
        if self.node(c).link[LAST] == a {
            self.node_mut(c).link[LAST] = n;
        }
    }

    /// Adds phi `p` to block `b` after its other phis.
    pub(crate) fn add_phi(&mut self, b: NodeId, p: NodeId) {
        let first = self.node(b).link[FIRST];
        if first == 0 {
            self.add_member(b, p);
            return;
        }
        if self.node(first).attrs.kind() == Attrs::STMT {
            self.node_mut(b).link[FIRST] = p;
            self.node_mut(p).next = first;
            return;
        }
        let mut last_phi = first;
        while self.node(self.node(last_phi).next).attrs.kind() == Attrs::PHI {
            last_phi = self.node(last_phi).next;
        }
        self.add_member_after(b, last_phi, p);
    }

    /// The members of code node `c`, in order.
    pub fn members(&self, c: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut m = self.node(c).link[FIRST];
        if m == 0 {
            return out;
        }
        while m != c {
            out.push(m);
            m = self.node(m).next;
        }
        out
    }
}
