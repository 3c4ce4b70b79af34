package plan_test

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
)

// unit returns a unit of secs CPU-seconds: a part of a 6-piece group
// with men, at its rate.
func unit(id string, secs float64, deps ...string) retro.Unit {
	m := index.Material{WhiteKings: 2, WhiteMen: 1, BlackKings: 2, BlackMen: 1}
	return retro.Unit{ID: id, Group: retro.UnitID(m), Positions: int64(secs * retro.Rate(m)), Deps: deps}
}

// TestSimulate checks the simulated schedule and the critical path of
// small graphs against times worked by hand.
func TestSimulate(t *testing.T) {
	chains := []retro.Unit{unit("A", 3), unit("C", 2), unit("B", 4, "A"), unit("D", 1, "C")}
	diamond := []retro.Unit{unit("A", 1), unit("B", 2, "A"), unit("C", 5, "A"), unit("D", 1, "B", "C")}
	many := []retro.Unit{unit("A", 3), unit("B", 3), unit("C", 2), unit("D", 2), unit("E", 2)}
	// Critical-path priority: B, behind A, before the larger D.
	priority := []retro.Unit{unit("A", 1), unit("C", 2), unit("D", 3), unit("B", 4, "A")}
	for _, c := range []struct {
		name         string
		units        []retro.Unit
		nodes, cores int
		want         float64
		path         []string
		pathSecs     float64
	}{
		{"two chains, one node", chains, 1, 1, 10, []string{"A", "B"}, 7},
		{"two chains, two nodes", chains, 2, 1, 7, []string{"A", "B"}, 7},
		{"two chains, two nodes of 2 cores", chains, 2, 2, 3.5, []string{"A", "B"}, 3.5},
		{"a diamond, one node", diamond, 1, 1, 9, []string{"A", "C", "D"}, 7},
		{"a diamond, two nodes", diamond, 2, 1, 7, []string{"A", "C", "D"}, 7},
		{"a diamond, three nodes", diamond, 3, 1, 7, []string{"A", "C", "D"}, 7},
		// 3 and 3, then 2 and 2, then 2: list scheduling, not the best 6.
		{"five units, two nodes", many, 2, 1, 7, []string{"A"}, 3},
		{"five units, five nodes", many, 5, 1, 3, []string{"A"}, 3},
		{"critical-path priority", priority, 2, 1, 5, []string{"A", "B"}, 5},
	} {
		if got := plan.Simulate(c.units, c.nodes, c.cores); got != c.want {
			t.Errorf("%s: Simulate %v s, want %v", c.name, got, c.want)
		}
		path, secs := plan.CriticalPath(c.units, c.cores)
		if !slices.Equal(path, c.path) || secs != c.pathSecs {
			t.Errorf("%s: CriticalPath %v, %v s; want %v, %v s", c.name, path, secs, c.path, c.pathSecs)
		}
	}
}

// TestJSONEstimates checks the estimates of the JSON document against
// its units: the CPU-hours are their sum, and the critical path is a
// chain of deps whose wall times add up to its own, at least any unit's.
func TestJSONEstimates(t *testing.T) {
	units, err := retro.Units(retro.Options{Pieces: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := plan.Build{Units: units, Dtb: "dtb", Dir: "tables", Threads: 4, Nodes: 2}
	var out bytes.Buffer
	if err := b.Write(&out, "json"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Units []struct {
			ID        string
			Deps      []string
			Positions int64
			CPU       float64 `json:"cpu_seconds"`
			Wall      float64 `json:"wall_seconds"`
		}
		CPUHours     float64 `json:"cpu_hours"`
		CriticalPath struct {
			Units []string
			Wall  float64 `json:"wall_seconds"`
		} `json:"critical_path"`
		Schedule struct {
			Wall float64 `json:"wall_seconds"`
		} `json:"schedule"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
	var cpu, longest float64
	byID := map[string]int{}
	for i, u := range doc.Units {
		byID[u.ID] = i
		cpu += u.CPU
		longest = max(longest, u.Wall)
		if !near(u.CPU, units[i].CPUSeconds()) || !near(u.Wall, u.CPU/4) {
			t.Errorf("unit %s: %v CPU-s, %v s, for %d positions on 4 threads", u.ID, u.CPU, u.Wall, u.Positions)
		}
	}
	if !near(doc.CPUHours, cpu/3600) {
		t.Errorf("cpu_hours %v, want %v", doc.CPUHours, cpu/3600)
	}
	var wall float64
	for k, id := range doc.CriticalPath.Units {
		u := doc.Units[byID[id]]
		wall += u.Wall
		if k > 0 && !slices.Contains(u.Deps, doc.CriticalPath.Units[k-1]) {
			t.Errorf("critical path %v: %s does not read %s", doc.CriticalPath.Units, id, doc.CriticalPath.Units[k-1])
		}
	}
	if len(doc.CriticalPath.Units) == 0 || !near(wall, doc.CriticalPath.Wall) || doc.CriticalPath.Wall < longest {
		t.Errorf("critical path %v of %v s: its units' sum %v s, the longest unit %v s", doc.CriticalPath.Units, doc.CriticalPath.Wall, wall, longest)
	}
	if s := doc.Schedule.Wall; s < doc.CriticalPath.Wall || s < cpu/8 || s > cpu/4 {
		t.Errorf("schedule on 2 nodes of 4 cores: %v s, not between the critical path %v s, %v s and %v s", s, doc.CriticalPath.Wall, cpu/8, cpu/4)
	}
}
