package slim

// SetThreatSaving sets the threshold of ThreatsWherePaying to x and
// returns the function that restores it.
func SetThreatSaving(x float64) (restore func()) {
	old := threatSaving
	threatSaving = x
	return func() { threatSaving = old }
}
