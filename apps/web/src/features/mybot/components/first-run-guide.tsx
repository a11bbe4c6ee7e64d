import Step from '@mui/material/Step';
import StepContent from '@mui/material/StepContent';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { SectionCard } from '../../../components/section-card.tsx';

const STEPS = [
  {
    label: 'Installez le bot sur votre PC',
    text: 'Téléchargez le bot depuis votre espace puis lancez-le sur le PC qui jouera.',
  },
  {
    label: 'Collez votre clé d’accès',
    text: 'Au premier lancement, le bot demande une clé : copiez celle affichée ci-dessous (bouton copier).',
  },
  {
    label: 'Votre PC se lie à votre compte',
    text: 'À la première connexion, l’identifiant matériel (HWID) du PC est enregistré. Pour changer de PC, déliez-le ici.',
  },
  {
    label: 'Suivez-le en direct',
    text: 'Dès qu’il est connecté, cette page montre vos comptes de jeu, leur position, leur statut et leurs gains.',
  },
];

/** Shown while no bot has ever connected to this account. */
export function FirstRunGuide() {
  return (
    <SectionCard
      title="Premiers pas"
      subheader="Aucun PC n’est lié à votre compte pour le moment : suivez ces étapes."
    >
      <Stepper orientation="vertical" activeStep={-1} data-testid="mybot-first-run">
        {STEPS.map((step) => (
          <Step key={step.label} expanded>
            <StepLabel>{step.label}</StepLabel>
            <StepContent>
              <Typography color="text.secondary">{step.text}</Typography>
            </StepContent>
          </Step>
        ))}
      </Stepper>
    </SectionCard>
  );
}
