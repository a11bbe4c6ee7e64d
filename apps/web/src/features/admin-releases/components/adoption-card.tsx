import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatDateTime } from '../../../lib/dates.ts';
import { adoptionQuery } from '../api/releases.ts';

const numberFormat = new Intl.NumberFormat('fr-FR');
/** Columns: now, and the samples about a day apart before it. */
const DAYS_SHOWN = 7;

/**
 * Adoption (decision 910): bots online per version, now and a day apart over the last week, from
 * samples taken every 10 minutes; and the agents that put an update off, until when.
 */
export function AdoptionCard() {
  const adoption = useQuery(adoptionQuery);
  const columns = useMemo(() => {
    const samples = adoption.data?.samples ?? [];
    const picked = [];
    let next = Number.POSITIVE_INFINITY;
    for (let index = samples.length - 1; index >= 0 && picked.length < DAYS_SHOWN; index -= 1) {
      const sample = samples[index]!;
      const at = Date.parse(sample.at);
      if (at > next) continue;
      picked.push(sample);
      next = at - 24 * 3_600_000;
    }
    return picked;
  }, [adoption.data]);
  const versions = [...new Set(columns.flatMap((sample) => Object.keys(sample.versions)))].sort((a, b) =>
    b.localeCompare(a, undefined, { numeric: true }),
  );
  const deferrals = adoption.data?.deferrals ?? [];

  return (
    <Paper variant="outlined" component="section" aria-label="Adoption des versions" sx={{ p: 2, mt: 3 }}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Adoption des versions
      </Typography>
      {columns.length === 0 ? (
        <Typography color="text.secondary">
          Aucun relevé pour l’instant : les bots en ligne sont comptés par version toutes les 10 minutes.
        </Typography>
      ) : (
        // Wider than a phone: it scrolls sideways, so the keyboard must be able to reach it.
        <TableContainer role="region" aria-label="Bots en ligne par version" tabIndex={0}>
          <Table size="small" data-testid="adoption">
            <TableHead>
              <TableRow>
                <TableCell>Version</TableCell>
                {columns.map((sample, index) => (
                  <TableCell key={sample.at} align="right">
                    {index === 0 ? `Relevé de ${formatDateTime(sample.at)}` : formatDateTime(sample.at)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {versions.map((version) => (
                <TableRow key={version}>
                  <TableCell>{version}</TableCell>
                  {columns.map((sample) => (
                    <TableCell key={sample.at} align="right">
                      {numberFormat.format(sample.versions[version] ?? 0)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Typography variant="h3" sx={{ fontSize: '1rem', mt: 2, mb: 1 }}>
        Mises à jour reportées
      </Typography>
      {deferrals.length === 0 ? (
        <Typography color="text.secondary">Aucun bot n’a reporté sa mise à jour.</Typography>
      ) : (
        <ul data-testid="deferrals">
          {deferrals.map((deferral) => (
            <li key={deferral.hwid}>
              {deferral.username ?? 'PC délié'} (<code>{deferral.hwid}</code>) : {deferral.version} reportée
              jusqu’au {formatDateTime(deferral.until)}
            </li>
          ))}
        </ul>
      )}
    </Paper>
  );
}
