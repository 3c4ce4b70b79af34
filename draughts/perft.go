package draughts

// Perft counts the leaf nodes of the legal move tree of the given depth
// (bulk counting: the last ply counts moves without playing them).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(p, depth, make([]Move, depth*MaxMoves))
}

// perft counts with one move buffer of MaxMoves per ply in stack.
func perft(p Position, depth int, stack []Move) uint64 {
	if depth == 1 {
		return uint64(p.CountMoves())
	}
	var n uint64
	for _, m := range p.Moves(stack[:0:MaxMoves]) {
		n += perft(p.Play(m), depth-1, stack[MaxMoves:])
	}
	return n
}
