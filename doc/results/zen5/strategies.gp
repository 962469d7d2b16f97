csv = 'doc/results/zen5/strategies.csv'
svg = 'doc/results/zen5/strategies.svg'
set datafile separator ','
set terminal svg size 900,540 dynamic noenhanced background rgb 'white'
set output svg
set title 'clearpage-bench strategies: time over the kernel arm (fault-like patterns)'
set ylabel 'ns per 4 KiB / kernel arm (median)'
set grid ytics
set style fill solid 0.6
set boxwidth 0.8
set key off
set xtics rotate by 90 right font ',7'
set bmargin 14
plot csv every ::1 using 0:9:xtic(stringcolumn(1).' '.stringcolumn(2).' '.stringcolumn(3).' '.stringcolumn(5)) with boxes
