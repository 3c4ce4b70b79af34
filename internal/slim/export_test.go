package slim

// SetThreatSaving sets the threshold of ThreatsWherePaying to x and
// returns the function that restores it.
func SetThreatSaving(x float64) (restore func()) {
	old := threatSaving
	threatSaving = x
	return func() { threatSaving = old }
}

// SetSearchCost sets the threshold of SidesWhereDear to x and returns
// the function that restores it.
func SetSearchCost(x float64) (restore func()) {
	old := searchCost
	searchCost = x
	return func() { searchCost = old }
}
