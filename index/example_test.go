package index_test

import (
	"fmt"

	"github.com/dtb-draughts/dtb/index"
)

func Example() {
	m, err := index.ParseMaterial("KMvK")
	if err != nil {
		panic(err)
	}
	x := index.New(m)
	fmt.Println(m, x.Size(), "=", x.MenConfigs(), "*", x.KingPlacements())

	// White: king on 4, man on 32; Black: king on 45.
	p := index.Placement{WhiteKings: 1 << (4 - 1), WhiteMen: 1 << (32 - 1), BlackKings: 1 << (45 - 1)}
	i := x.Rank(p)
	fmt.Println(i, x.Unrank(i) == p) // 26*2352 + 3*48 + 42
	fmt.Println(m.Flip(), index.Materials(2))
	// Output:
	// KMvK 105840 = 45 * 2352
	// 61338 true
	// KvKM [KvK KvM MvK MvM]
}
