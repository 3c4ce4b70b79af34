package verify

import "time"

// SetTestHooks calls afterChunk after each chunk of values checked and
// keeps the progress every save, until the test ends.
func SetTestHooks(cleanup func(func()), afterChunk func(), save time.Duration) {
	old := saveEvery
	testHookChunk, saveEvery = afterChunk, save
	cleanup(func() { testHookChunk, saveEvery = nil, old })
}
