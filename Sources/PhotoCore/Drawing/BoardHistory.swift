/// One undoable step of a board: what Ctrl+Z takes back and Ctrl+Shift+Z does again.
///
/// A step is made of commands, each holding what it needs to be undone and redone on its
/// own (the item added or removed and its place, a change's before and after), so undoing
/// or redoing costs what the step touched, never the board's size: a stroke's undo is one
/// item, Clear's undo every item it cleared.
public struct BoardStep: Sendable {
    /// What a step did, for the Undo and Redo buttons' tooltips.
    public enum Kind: Sendable, Equatable {
        /// Items added: a stroke, a shape, a text, a pixelation.
        case draw
        /// Items the eraser or Delete removed.
        case remove
        /// Items moved, recoloured, resized or edited.
        case change
        /// Every item removed at once.
        case clear
        /// The floating photo fixed onto the board.
        case fixPhoto
        /// The board cropped.
        case crop
    }

    public let kind: Kind
    var commands: [BoardCommand]
    /// Tells steps apart: the board's state is its last step's, for unsaved changes.
    var serial: Int
}

/// An item and the place it has in the drawing order.
struct PlacedItem: Sendable {
    let place: Int
    let item: BoardItem
}

/// One change to a board's state, undone by its inverse.
enum BoardCommand: Sendable {
    /// Items put at their places (in the order of their places).
    case add([PlacedItem])
    /// Items taken from their places (in the order of their places).
    case remove([PlacedItem])
    case change(place: Int, before: BoardItem, after: BoardItem)
    case crop(before: ViewRect, after: ViewRect)

    /// The command that undoes this one.
    var inverse: BoardCommand {
        switch self {
        case .add(let placed): .remove(placed)
        case .remove(let placed): .add(placed)
        case .change(let place, let before, let after): .change(place: place, before: after, after: before)
        case .crop(let before, let after): .crop(before: after, after: before)
        }
    }
}

/// The undo and redo stacks of a board, and the step being gathered while a gesture goes on
/// (an eraser's drag, an item dragged along: one step however many events it took).
struct BoardHistory: Sendable {
    private(set) var undoSteps: [BoardStep] = []
    private(set) var redoSteps: [BoardStep] = []
    private var gathering: BoardStep?
    private var depth = 0

    /// Starts gathering the commands that follow into one step of `kind`.
    mutating func beginStep(_ kind: BoardStep.Kind) {
        depth += 1
        if depth == 1 { gathering = BoardStep(kind: kind, commands: [], serial: 0) }
    }

    /// Ends the step begun last: it goes on the undo stack if it did anything.
    mutating func endStep() {
        guard depth > 0 else { return }
        depth -= 1
        guard depth == 0, let step = gathering else { return }
        gathering = nil
        if !step.commands.isEmpty { undoSteps.append(step) }
    }

    /// Ends every step still gathering (before an undo or a redo).
    mutating func closeSteps() {
        while depth > 0 { endStep() }
    }

    var isGathering: Bool { depth > 0 }

    /// Records a command that was just applied: into the step being gathered (a change
    /// following a change of the same item merges with it), else as a step of its own.
    /// Clears what could be redone.
    mutating func record(_ command: BoardCommand, kind: BoardStep.Kind, serial: Int) {
        redoSteps.removeAll()
        guard var step = gathering else {
            undoSteps.append(BoardStep(kind: kind, commands: [command], serial: serial))
            return
        }
        if step.commands.isEmpty { step.serial = serial }
        if case .change(let place, _, let after) = command, case .change(place, let before, _)? = step.commands.last {
            step.commands[step.commands.count - 1] = .change(place: place, before: before, after: after)
        } else {
            step.commands.append(command)
        }
        gathering = step
    }

    /// The step to undo, moved to the redo stack.
    mutating func takeUndo() -> BoardStep? {
        closeSteps()
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step
    }

    /// The step to redo, moved to the undo stack.
    mutating func takeRedo() -> BoardStep? {
        closeSteps()
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }
}
