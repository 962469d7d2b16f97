csv = '/tmp/grid/4k-cold-loaded/replay.csv'
svg = '/tmp/grid/4k-cold-loaded/replay.svg'
set datafile separator ','
set terminal svg size 900,540 dynamic noenhanced background rgb 'white'
set output svg
timeline = csv[1:strlen(csv) - 4] . '-timeline.csv'
set multiplot layout 2,1 title 'clearpage-bench replay: the adaptive arm'
set grid
set key outside right
set xlabel 'interval'
set ylabel 'fraction'
set yrange [-0.05:1.05]
plot timeline using 1:12 with steps lw 2 title 'cold share of the phase', timeline using 1:($5 >= 0 ? $5 : 1/0) with points pt 7 ps 0.5 title 'estimated cold fraction'
set ylabel 'strategy'
set yrange [-0.5:6.5]
set ytics ('kernel' 0, 'rep_stosb' 1, 'rep_stosq' 2, 'movq' 3, 'movnti' 4, 'clzero' 5, 'per folio' 6)
plot timeline using 1:4 with steps lw 2 title 'strategy chosen'
unset multiplot
