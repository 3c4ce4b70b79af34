package plan

import (
	"cmp"
	"slices"

	"github.com/dtb-draughts/dtb/retro"
)

// CPUSeconds estimates the CPU time of u from the one table of rates,
// retro.Rate (retro.Unit.CPUSeconds).
func CPUSeconds(u retro.Unit) float64 { return u.CPUSeconds() }

// Rate returns the positions a CPU-second that the estimates of units
// assume over all of them together.
func Rate(units []retro.Unit) float64 {
	var positions int64
	var cpu float64
	for _, u := range units {
		positions += u.Positions
		cpu += u.CPUSeconds()
	}
	if cpu == 0 {
		return 0
	}
	return float64(positions) / cpu
}

// WallSeconds estimates the wall time of u on threads threads, assuming
// they scale (measured to 2: 1.85 to 2.07 times one thread).
func WallSeconds(u retro.Unit, threads int) float64 {
	return CPUSeconds(u) / float64(max(threads, 1))
}

// CriticalPath returns the longest chain of units through the deps, by
// their wall times on threads threads, in build order, and its wall time
// in seconds. Deps not among units are ignored.
func CriticalPath(units []retro.Unit, threads int) (ids []string, seconds float64) {
	at := indexes(units)
	end := make([]float64, len(units)) // the chain's time up to a unit's end
	prev := make([]int, len(units))
	last := -1
	for i, u := range units {
		prev[i] = -1
		for _, d := range u.Deps {
			if j, ok := at[d]; ok && (prev[i] < 0 || end[j] > end[prev[i]]) {
				prev[i] = j
			}
		}
		end[i] = WallSeconds(u, threads)
		if prev[i] >= 0 {
			end[i] += end[prev[i]]
		}
		if last < 0 || end[i] > end[last] {
			last = i
		}
	}
	for i := last; i >= 0; i = prev[i] {
		ids = append(ids, units[i].ID)
	}
	slices.Reverse(ids)
	if last < 0 {
		return nil, 0
	}
	return ids, end[last]
}

// indexes returns the index of each unit by ID.
func indexes(units []retro.Unit) map[string]int {
	at := make(map[string]int, len(units))
	for i, u := range units {
		at[u.ID] = i
	}
	return at
}

// Simulate returns the wall time in seconds of the units on nodes nodes
// of cores cores, by list scheduling: each unit takes a whole node for
// WallSeconds(u, cores); whenever a node is free, of the units whose
// deps are done it starts the one with the longest chain of wall times
// from its start to the end of the build (critical-path priority), the
// earlier in build order on a tie. Units must be in build order.
func Simulate(units []retro.Unit, nodes, cores int) float64 {
	at := indexes(units)
	wall := make([]float64, len(units))
	rank := make([]float64, len(units)) // the longest chain from the unit on
	waiting := make([]int, len(units))  // deps not done
	users := make([][]int, len(units))
	for i, u := range units {
		wall[i] = WallSeconds(u, cores)
		for _, d := range u.Deps {
			if j, ok := at[d]; ok {
				users[j] = append(users[j], i)
				waiting[i]++
			}
		}
	}
	for i := len(units) - 1; i >= 0; i-- {
		rank[i] = wall[i]
		for _, k := range users[i] {
			rank[i] = max(rank[i], wall[i]+rank[k])
		}
	}
	var ready []int
	for i := range units {
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	var now float64
	var running []int // by end time
	end := make([]float64, len(units))
	for len(ready) > 0 || len(running) > 0 {
		for len(running) < max(nodes, 1) && len(ready) > 0 {
			best := 0
			for r, i := range ready {
				if rank[i] > rank[ready[best]] || rank[i] == rank[ready[best]] && i < ready[best] {
					best = r
				}
			}
			i := ready[best]
			ready = slices.Delete(ready, best, best+1)
			end[i] = now + wall[i]
			running = append(running, i)
			slices.SortStableFunc(running, func(a, b int) int { return cmp.Compare(end[a], end[b]) })
		}
		for now = end[running[0]]; len(running) > 0 && end[running[0]] == now; running = running[1:] {
			for _, k := range users[running[0]] {
				if waiting[k]--; waiting[k] == 0 {
					ready = append(ready, k)
				}
			}
		}
	}
	return now
}
