import { countOf } from '@bot/contracts';
import Box from '@mui/material/Box';
import { visuallyHidden } from '../../../lib/visually-hidden.ts';
import { MAX_LISTED_ACCOUNTS, type MapDescription } from './describe-map.ts';

const coordinate = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const zoom = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

const point = (x: number, y: number) => `[${coordinate.format(x)}, ${coordinate.format(y)}]`;

/**
 * The canvas in words for screen readers (it is one image to them): where the view is and how close,
 * whether accounts are grouped, the accounts shown one by one and the zones. The data attributes carry
 * the exact numbers the text rounds (the journeys read them).
 */
export function MapTextAlternative({
  description,
  id,
}: {
  description: MapDescription | null;
  /** The view sentence's, which describes the focusable map region. */
  id: string;
}) {
  if (!description) return null;
  const { view, area, shownCount, accounts, areas } = description;
  return (
    <Box sx={visuallyHidden} data-testid="map-description">
      <p
        id={id}
        role="status"
        data-testid="map-view"
        data-cx={view.cx}
        data-cy={view.cy}
        data-scale={view.scale}
        data-clustered={view.isClustered}
        data-revision={view.revision}
        data-min-x={area.minX}
        data-min-y={area.minY}
        data-max-x={area.maxX}
        data-max-y={area.maxY}
      >
        {`Vue centrée sur ${point(view.cx, view.cy)}, zoom ${zoom.format(view.scale)} pixels par case, de ${point(area.minX, area.minY)} à ${point(area.maxX, area.maxY)}. `}
        {view.isClustered
          ? 'Vue éloignée : les comptes sont regroupés.'
          : 'Vue rapprochée : chaque compte est dessiné.'}
      </p>
      <p data-testid="map-shown-accounts-count" data-count={shownCount}>
        {`${countOf(shownCount, 'compte de jeu détaillé', 'comptes de jeu détaillés')} sur la carte.`}
        {accounts ? '' : ` Zoomez ou filtrez pour en lister ${MAX_LISTED_ACCOUNTS} au plus.`}
      </p>
      {accounts && accounts.length > 0 ? (
        <ul aria-label="Comptes de jeu sur la carte" data-testid="map-shown-accounts">
          {accounts.map((account) => (
            <li
              key={`${account.hwid}/${account.name}`}
              data-hwid={account.hwid}
              data-x={account.x}
              data-y={account.y}
            >
              {`${account.character} (${account.name}), ${account.owner}, ${account.status}, ${point(account.x, account.y)}`}
            </li>
          ))}
        </ul>
      ) : null}
      {areas.length > 0 ? (
        <ul aria-label="Zones de la carte" data-testid="map-areas">
          {areas.map((area) => (
            <li key={area.id} data-label-x={area.label?.x} data-label-y={area.label?.y}>
              <span data-testid="map-area-name">{area.name}</span>
              {area.label ? ', nom affiché sur la carte' : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </Box>
  );
}
